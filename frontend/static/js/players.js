// How players are named on screen: bot levels and the site's bot names in the page's language.
import { _, fmt } from "./i18n.js";

export function levelName(level) {
  const names = {
    easy: _("Easy"), normal: _("Normal"), hard: _("Hard"), random: _("Random"),
    simple: _("Simple"), heuristic: _("Heuristic"), strong: _("Strong"),
  };
  return names[level] || level || "";
}

// The server names its bots "Bot Ganesh" and so on; shown translated ("机器人格内什").
const BOT_NAMES = () => ({
  Ganesh: _("Ganesh"), Lakshmi: _("Lakshmi"), Hari: _("Hari"),
  Sita: _("Sita"), Arjun: _("Arjun"), Mira: _("Mira"),
});

export function playerName(seat) {
  if (!seat) return "";
  const name = seat.name || seat.username || "";
  if (seat.kind === "bot") {
    const m = /^Bot\s+(.+)$/i.exec(name);
    if (m) return fmt(_("Bot %(name)s"), { name: BOT_NAMES()[m[1]] || m[1] });
  }
  return name;
}

// On a seat's plate (which says "Bot" beside it): a bot's own name only ("Hari", "哈里").
export function plateName(seat) {
  if (!seat) return "";
  const m = seat.kind === "bot" && /^Bot\s+(.+)$/i.exec(seat.name || "");
  return m ? BOT_NAMES()[m[1]] || m[1] : playerName(seat);
}

// A bot seat at a table before its match: "Bot (normal)".
export const botSeatLabel = (level) => fmt(_("Bot (%(level)s)"), { level: levelName(level) });
