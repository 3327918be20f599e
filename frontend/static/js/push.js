// Web Push on this device. "Tell me when it's my turn" asks for the browser's permission, only after the
// person's own click (never on load), subscribes with the site's VAPID key (GET /api/push/key/) and gives the
// subscription to the server (POST /api/me/push-subscriptions/, idempotent); "Stop on this device" removes it
// there and in the browser. Every [data-push-offer] box on the page gets its buttons: the settings page's, and
// a correspondence match's (its clock shows the box). The service worker shows the pushes (pwa/sw.js).
import { api } from "./api.js";
import { _ } from "./i18n.js";

export const supported = () =>
  window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

function keyBytes(base64url) {
  const b64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function sameKey(subscription, key) {
  const used = subscription.options && subscription.options.applicationServerKey;
  if (!used) return true; // the browser does not say: trust it
  const a = new Uint8Array(used);
  const b = keyBytes(key);
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

let keyPromise = null;
// The site's public key, or null when push is off here ({"enabled": false}).
export function publicKey() {
  keyPromise ||= api("/api/push/key/").then(
    (d) => (d.enabled === false ? null : d.public_key),
    (e) => {
      keyPromise = null;
      throw e;
    },
  );
  return keyPromise;
}

async function registration() {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" }); // site.js did on load; this waits for it
  return navigator.serviceWorker.ready;
}

async function browserSubscription() {
  const reg = await navigator.serviceWorker.getRegistration("/");
  return reg ? reg.pushManager.getSubscription() : null;
}

// The server's record of this browser's subscription, if it has one.
async function serverRecord(subscription) {
  if (!subscription) return null;
  const mine = await api("/api/me/push-subscriptions/");
  return mine.find((s) => s.endpoint === subscription.endpoint) || null;
}

// "unsupported", "off-site" (push not set up here), "blocked", "on" or "off" for this device.
export async function deviceState() {
  if (!supported()) return "unsupported";
  if (!(await publicKey())) return "off-site";
  if (Notification.permission === "denied") return "blocked";
  if (Notification.permission !== "granted") return "off";
  return (await serverRecord(await browserSubscription())) ? "on" : "off";
}

// Ask, subscribe, tell the server. Call from a click only.
export async function enable() {
  const key = await publicKey();
  if (!key) throw new Error(_("Push notifications are not set up on this site."));
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new Error(permission === "denied"
      ? _("Notifications are blocked for this site: allow them in your browser's site settings.")
      : _("You did not allow notifications."));
  }
  const reg = await registration();
  let subscription = await reg.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe(); // the site's key changed: the old subscription no longer works
    subscription = null;
  }
  subscription ||= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  return api("/api/me/push-subscriptions/", { method: "POST", body: subscription.toJSON() });
}

export async function disable() {
  const subscription = await browserSubscription();
  const record = await serverRecord(subscription);
  if (record) await api(`/api/me/push-subscriptions/${record.id}/`, { method: "DELETE" });
  if (subscription) await subscription.unsubscribe();
}

const MESSAGES = {
  unsupported: () => _("This browser cannot receive push notifications (on an iPhone, add the site to the Home Screen first)."),
  "off-site": () => _("Push notifications are not set up on this site."),
  blocked: () => _("Notifications are blocked for this site: allow them in your browser's site settings."),
  on: () => _("This device is told when it's your turn."),
  off: () => "",
};

export function mountOffer(box) {
  const enableBtn = box.querySelector("[data-push-enable]");
  const disableBtn = box.querySelector("[data-push-disable]");
  const status = box.querySelector("[data-push-status]");
  const compact = "pushCompact" in box.dataset; // a match's page: the button alone, words only after a click

  const show = (state, message) => {
    if (enableBtn) enableBtn.hidden = state !== "off";
    if (disableBtn) disableBtn.hidden = state !== "on";
    if (status) status.textContent = message ?? (compact ? "" : MESSAGES[state]());
    box.dataset.state = state;
    // the settings page's list of devices: mark this one
    for (const li of document.querySelectorAll("[data-testid=push-device]")) {
      const mark = li.querySelector(".push-this");
      if (mark) mark.hidden = !(state === "on" && li.dataset.endpoint === box.dataset.endpoint);
    }
  };

  const refresh = async (say = false) => {
    try {
      const state = await deviceState();
      if (state === "on") box.dataset.endpoint = (await browserSubscription()).endpoint;
      show(state, say ? MESSAGES[state]() : undefined);
    } catch (e) {
      show("off", e.message);
    }
  };

  enableBtn?.addEventListener("click", async () => {
    enableBtn.disabled = true;
    try {
      await enable();
      await refresh(true);
    } catch (e) {
      show(Notification.permission === "denied" ? "blocked" : "off", e.message);
    } finally {
      enableBtn.disabled = false;
    }
  });
  disableBtn?.addEventListener("click", async () => {
    disableBtn.disabled = true;
    try {
      await disable();
      show("off", _("This device gets no more push notifications."));
    } catch (e) {
      show("on", e.message);
    } finally {
      disableBtn.disabled = false;
    }
  });
  refresh();
}

for (const box of document.querySelectorAll("[data-push-offer]")) mountOffer(box);
