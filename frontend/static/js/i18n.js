// Thin wrappers around Django's JavaScript catalog (loaded by base.html from jsi18n/).
export const _ = (s) => (typeof window.gettext === "function" ? window.gettext(s) : s);
export const fmt = (s, obj) =>
  typeof window.interpolate === "function"
    ? window.interpolate(s, obj, !Array.isArray(obj))
    : s.replace(/%\((\w+)\)s/g, (m, k) => (obj && k in obj ? obj[k] : m));
export const lang = () => document.documentElement.lang || "en";
