// /friends/: the people I follow (online now, what they play), follow / unfollow, challenge, block / unblock.
// Refetched when /ws/me/ opens and every 30 s while the page is visible (who is online changes without a message).
import { api } from "./api.js";
import { bound } from "./bound.js";
import { _, fmt } from "./i18n.js";
import { onUserMessage, onUserSocketOpen } from "./user_socket.js";

const list = document.getElementById("friend-list");
const blockedBox = document.getElementById("blocked-box");
const blockedList = document.getElementById("blocked-list");
const form = document.getElementById("follow-form");
const error = form.querySelector(".form-error");

function button(label, testid, fn, cls = "btn btn-small") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = label;
  b.dataset.testid = testid;
  b.addEventListener("click", async () => {
    b.disabled = true;
    try { await fn(); } catch (err) { showError(err); } finally { b.disabled = false; }
  });
  return b;
}

function showError(err) {
  error.textContent = err.message || _("Something went wrong; try again.");
  error.hidden = false;
}

const path = (name) => encodeURIComponent(name);

function friendItem(f) {
  const li = document.createElement("li");
  li.className = "friend-row";
  li.dataset.testid = `friend-${f.username}`;
  const who = document.createElement("div");
  who.className = "friend-who";
  const dot = document.createElement("span");
  dot.className = "online-dot" + (f.online ? " on" : "");
  dot.title = f.online ? _("Online now") : _("Offline");
  const name = document.createElement("a");
  name.href = `/players/${path(f.username)}/`;
  name.textContent = f.username;
  const what = document.createElement("span");
  what.className = "muted small";
  what.dataset.testid = `friend-status-${f.username}`;
  what.textContent = f.playing.length ? _("Playing now") : f.online ? _("Online now") : _("Offline");
  who.append(dot, name, what);
  li.appendChild(who);
  const tools = document.createElement("div");
  tools.className = "friend-tools";
  for (const m of f.playing) {
    if (!m.watch_url) continue;
    const a = document.createElement("a");
    a.className = "btn btn-small btn-ghost";
    a.href = m.watch_url;
    a.textContent = _("Watch");
    a.dataset.testid = `watch-friend-${f.username}`;
    tools.appendChild(a);
  }
  tools.appendChild(button(_("Challenge"), `challenge-${f.username}`, async () => {
    const table = await api(`/api/friends/${path(f.username)}/challenge/`, { method: "POST", body: {} });
    location.href = `/tables/${table.id}/`;
  }));
  tools.appendChild(button(_("Unfollow"), `unfollow-${f.username}`, async () => {
    await api(`/api/friends/${path(f.username)}/`, { method: "DELETE" });
    await refresh();
  }, "linklike"));
  tools.appendChild(button(_("Block"), `block-${f.username}`, async () => {
    if (!confirm(fmt(_("Block %(name)s? Neither of you can then invite, challenge, chat with or sit with the other."), { name: f.username }))) return;
    await api(`/api/blocks/${path(f.username)}/`, { method: "PUT" });
    await refresh();
  }, "linklike"));
  li.appendChild(tools);
  return li;
}

function blockedItem(username) {
  const li = document.createElement("li");
  li.className = "friend-row";
  const name = document.createElement("span");
  name.textContent = username;
  li.append(name, button(_("Unblock"), `unblock-${username}`, async () => {
    await api(`/api/blocks/${path(username)}/`, { method: "DELETE" });
    await refresh();
  }, "linklike"));
  return li;
}

async function refresh() {
  const data = await api("/api/friends/");
  if (!data.friends.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = _("You follow nobody yet: follow a player by name, or from their profile.");
    list.replaceChildren(li);
  } else {
    list.replaceChildren(...data.friends.map(friendItem));
  }
  blockedBox.hidden = !data.blocked.length;
  blockedList.replaceChildren(...data.blocked.map(blockedItem));
}

form.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  error.hidden = true;
  const input = form.querySelector("input[name=username]");
  try {
    await api(`/api/friends/${path(input.value.trim())}/`, { method: "PUT" });
    input.value = "";
    await refresh();
  } catch (err) {
    showError(err.status === 404 ? { message: _("No player of that name.") } : err);
  }
});
bound(form);

onUserMessage(() => {});
onUserSocketOpen(() => refresh().catch(() => {}));
refresh().catch(showError);
setInterval(() => { if (document.visibilityState === "visible") refresh().catch(() => {}); }, 30000);
