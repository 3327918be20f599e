// The one translation channel: Django's JavaScript catalog (jsi18n/, loaded by base.html), which defines
// gettext, ngettext and interpolate. Dates and times follow the page's language (<html lang>).
export const lang = () => document.documentElement.lang || "en";

export const _ = (s) => (typeof window.gettext === "function" ? window.gettext(s) : s);

export const ngettext = (one, many, n) =>
  typeof window.ngettext === "function" ? window.ngettext(one, many, n) : n === 1 ? one : many;

// "%(name)s" placeholders, filled from an object (Django's interpolate with named=true).
export const fmt = (s, obj) =>
  typeof window.interpolate === "function"
    ? window.interpolate(s, obj, true)
    : s.replace(/%\((\w+)\)s/g, (m, k) => (obj && k in obj ? obj[k] : m));

let dateFmt = null;
export function formatDateTime(value) {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return "";
  dateFmt ||= new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" });
  return dateFmt.format(d);
}

let dayFmt = null;
export function formatDate(value) {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return "";
  dayFmt ||= new Intl.DateTimeFormat(lang(), { dateStyle: "medium" });
  return dayFmt.format(d);
}

// "in 2 days", "in 5 minutes" (rounded to the largest sensible unit) in the page's language.
export function inTime(seconds) {
  const rtf = new Intl.RelativeTimeFormat(lang(), { numeric: "auto" });
  const s = Math.max(0, seconds);
  if (s >= 86400) return rtf.format(Math.round(s / 86400), "day");
  if (s >= 3600) return rtf.format(Math.round(s / 3600), "hour");
  if (s >= 60) return rtf.format(Math.round(s / 60), "minute");
  return rtf.format(Math.round(s), "second");
}

// "Turn ends in 2 days"
export const turnEnds = (seconds) => fmt(_("Turn ends %(when)s"), { when: inTime(seconds) });

// Time per move of a table: "60 s a move", "2 d a move".
export function perMove(seconds) {
  return seconds < 86400
    ? fmt(_("%(s)s s a move"), { s: seconds })
    : fmt(_("%(d)s d a move"), { d: seconds / 86400 });
}
