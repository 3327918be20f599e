// On every page: the menu button on small screens, dates in the page's language, the service worker
// (installable app, offline page) and, when signed in, notices and "your turn" in the tab title and icon.
import { formatDate, formatDateTime } from "./i18n.js";

// ---- the menu (small screens) ----------------------------------------------------------------
const topbar = document.querySelector(".topbar");
const menuBtn = document.getElementById("menu-btn");
const menu = document.getElementById("menu-panel");
if (topbar && menuBtn && menu) {
  topbar.classList.add("js-menu");
  const setOpen = (open) => {
    menuBtn.setAttribute("aria-expanded", open ? "true" : "false");
    topbar.classList.toggle("menu-open", open);
  };
  menuBtn.addEventListener("click", () => setOpen(menuBtn.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && topbar.classList.contains("menu-open")) {
      setOpen(false);
      menuBtn.focus();
    }
  });
  document.addEventListener("click", (ev) => {
    if (topbar.classList.contains("menu-open") && !topbar.contains(ev.target)) setOpen(false);
  });
}

// ---- dates in the page's language ----------------------------------------------------------
for (const el of document.querySelectorAll("time[data-format]")) {
  const when = el.getAttribute("datetime");
  el.textContent = el.dataset.format === "date" ? formatDate(when) : formatDateTime(when);
}

// ---- installable: the service worker ------------------------------------------------------------
if ("serviceWorker" in navigator && document.body.dataset.sw !== "off") {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* not served here */ });
  });
}

// ---- signed in: notices and your turn ---------------------------------------------------------
if (document.body.dataset.signedIn === "1") {
  // matches played offline in this browser, uploaded now that a page of the site loads
  import("./offline/sync.js").then((m) => m.startUploads());
  import("./notices.js").then((m) => m.startNotices());
  import("./turn_signal.js").then((m) => m.startTurnSignal());
}
