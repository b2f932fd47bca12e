/** The page's router: `#/` the lobby, `#/t/<table id>` a table (`#/t/<table id>/<invitation code>`: a private one), `#/replay` the replay viewer
 * (`#/replay/<table id>`: a finished match's record). */
import "./style.css";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";
import { showReplay } from "./replay.js";

const main = document.getElementById("main")!;
let leave: (() => void) | undefined;

function route(): void {
  leave?.();
  leave = undefined;
  const hash = window.location.hash.replace(/^#/, "");
  const table = /^\/t\/([^/]+)(?:\/([^/]+))?$/.exec(hash);
  const replay = /^\/replay(?:\/([^/]+))?$/.exec(hash);
  if (replay) {
    document.title = "trapoula: replay";
    leave = showReplay(main, replay[1] ? decodeURIComponent(replay[1]) : undefined);
  } else if (table) {
    document.title = "trapoula: table";
    leave = showTable(main, decodeURIComponent(table[1]!), table[2] ? decodeURIComponent(table[2]) : "");
  } else {
    document.title = "trapoula: lobby";
    leave = showLobby(main);
  }
}

window.addEventListener("hashchange", route);
route();
