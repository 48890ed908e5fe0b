"""The frame of the package's self-contained web pages (the play and review page of
``_html``, the explain page of ``_explain_html``): the HTML around a page's body, and the
style sheet's rules every page shares, each page's own rules after them."""

from __future__ import annotations

from html import escape

__all__ = ["PAGE_STYLE", "page"]

#: The rules every page starts with: the text, the buttons, the status, the picture, phones.
PAGE_STYLE = """
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 1.2em; color: #222222;
       background: #ffffff; }
h1 { font-size: 1.35em; margin: 0 0 .4em 0; }
p { margin: .35em 0; }
.controls { margin: .8em 0 .5em 0; }
.controls button { font: inherit; font-size: .95em; padding: .3em .8em; margin-right: .3em;
                   border: 1px solid #777777; border-radius: 4px; background: #f4f4f4;
                   cursor: pointer; }
.controls button:disabled { color: #aaaaaa; cursor: default; }
.status { border-left: 4px solid #cccccc; padding-left: .7em; }
#picture { margin-top: .8em; overflow-x: auto; }
@media (max-width: 600px) {
  body { margin: .6em; }
  #picture svg { max-width: 100%; height: auto; }
}
"""


def page(title: str, style: str, body: str) -> str:
    """A whole page: ``title`` (escaped here), ``PAGE_STYLE`` then ``style``, and ``body``."""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{escape(title)}</title>\n<style>{PAGE_STYLE}{style}</style>\n</head>\n"
            f"<body>\n{body}\n</body>\n</html>\n")
