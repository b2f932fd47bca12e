/** The page's router: `#/` the lobby, `#/t/<table id>` a table. */
import "./style.css";
import { showLobby } from "./lobby.js";
import { showTable } from "./table.js";

const main = document.getElementById("main")!;
let leave: (() => void) | undefined;

function route(): void {
  leave?.();
  leave = undefined;
  const hash = window.location.hash.replace(/^#/, "");
  const table = /^\/t\/([^/]+)$/.exec(hash);
  if (table) {
    document.title = "trapoula: table";
    leave = showTable(main, decodeURIComponent(table[1]!));
  } else {
    document.title = "trapoula: lobby";
    void showLobby(main);
  }
}

window.addEventListener("hashchange", route);
route();
