"""Compact JSON text: how views and event payloads go on the wire (``View.view_json``,
``Event.payload_json``), and how a view kept as text is read back.

A rendered view is kept as its text (:class:`~trapoula.service.views.WatchItem`): a string holds
no references, so the cyclic collector never walks it, where the view's dicts and lists would be
walked twice by the young collections for as long as the table keeps the rendering.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any) -> str:
    """Compact JSON (UTF-8 text, not ASCII-escaped), as ``json.dumps(value, ensure_ascii=False,
    separators=(",", ":"))`` writes it, encoded by orjson (a view is encoded once per viewer and
    event: the server's most repeated work after gRPC itself); keys that are not text are written
    as text, as ``json`` does.  Values orjson refuses (an int beyond 64 bits) go to ``json``.

    >>> dumps({"seat": 1, "hand": ["7H", "QS"], 2: None})
    '{"seat":1,"hand":["7H","QS"],"2":null}'
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> Any:
    """The value of JSON ``text`` that :func:`dumps` wrote (its arrays as lists, its keys as text;
    read by ``json``, which keeps an int beyond 64 bits an int).

    >>> loads('{"seat":1,"hand":["7H","QS"]}')
    {'seat': 1, 'hand': ['7H', 'QS']}

    Raises:
        ValueError: ``text`` is not JSON (``json.JSONDecodeError``).
    """
    return json.loads(text)
