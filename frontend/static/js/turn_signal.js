// "Your turn" in the tab title and the favicon, on every page, for any of the user's matches.
import { _, fmt, ngettext } from "./i18n.js";
import { myTurns, watchMatches } from "./matches_store.js";

const baseTitle = document.title;
const icon = document.querySelector("link[rel=icon]");
const baseIcon = icon && icon.getAttribute("href");
const turnIcon = icon && icon.dataset.turnHref;

function show(n) {
  document.documentElement.dataset.yourTurn = String(n);
  document.title = n
    ? fmt(ngettext("(%(n)s) Your turn · %(title)s", "(%(n)s) Your turn · %(title)s", n), { n, title: baseTitle })
    : baseTitle;
  if (icon && turnIcon) icon.setAttribute("href", n ? turnIcon : baseIcon);
}

export function startTurnSignal() {
  watchMatches((list) => show(myTurns(list).length));
}
