// One arena: its clock, my entry and its buttons, the standings (each person's matches linked to their replays)
// and, at the end, the podium. Drawn from the data in the page, then live from /ws/tournaments/{id}/; when I am
// seated, /ws/me/ says where to go.
import { api } from "./api.js";
import { _, fmt, ngettext } from "./i18n.js";
import { onUserMessage } from "./user_socket.js";

const initial = JSON.parse(document.getElementById("arena-data").textContent);
const id = initial.id;
let state = initial;
let me = initial.me;
let endsAt = Date.now() + initial.seconds_left * 1000;
const signedIn = document.body.dataset.signedIn === "1";
const el = (name) => document.getElementById(name);

function clockText() {
  const left = Math.max(0, Math.round((endsAt - Date.now()) / 1000));
  const mmss = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  if (state.phase === "upcoming") {
    const wait = Math.max(0, Math.round((Date.parse(state.starts_at) - Date.now()) / 1000));
    return fmt(_("Starts in %(t)s"), { t: `${Math.floor(wait / 60)}:${String(wait % 60).padStart(2, "0")}` });
  }
  if (state.phase === "running") return fmt(_("%(t)s left"), { t: mmss });
  if (state.phase === "finishing") return _("Time is up: the last matches are finishing.");
  return _("Finished");
}

function tick() {
  el("arena-clock").textContent = clockText();
}

function meText() {
  if (!me) return signedIn && state.phase !== "finished" ? _("You have not joined.") : "";
  const points = fmt(_("%(p)s points"), { p: me.points_text });
  if (me.status === "withdrawn") return `${_("You withdrew.")} ${points}`;
  if (me.playing) return `${_("You are playing.")} ${points}`;
  if (me.status === "paused") return `${_("Paused: you are not seated until you join again.")} ${points}`;
  if (state.phase === "running") return `${_("Waiting for a table…")} ${points}`;
  return points;
}

function drawMe() {
  el("arena-me").textContent = meText();
  if (!signedIn) return;
  const open = state.phase === "upcoming" || state.phase === "running";
  el("arena-join").hidden = !open || (me && me.status !== "paused");
  el("arena-join").textContent = me && me.status === "paused" ? _("Come back") : _("Join");
  el("arena-pause").hidden = !open || !me || me.status !== "active";
  el("arena-withdraw").hidden = !open || !me || me.status === "withdrawn";
  const go = el("arena-go");
  go.hidden = !(me && me.playing);
  if (me && me.playing) go.href = `/play/${me.playing}/`;
}

function resultLink(r) {
  const a = document.createElement("a");
  a.className = `arena-result place-${r.place}${r.doubled ? " doubled" : ""}`;
  a.href = `/replay/${r.match_id}/`;
  a.textContent = String(r.place);
  a.title = fmt(_("Match #%(id)s: place %(place)s"), { id: r.match_id, place: r.place });
  return a;
}

function row(s) {
  const li = document.createElement("li");
  li.className = "standing";
  li.dataset.testid = `standing-${s.username}`;
  if (me && s.user_id === initial.viewer) li.classList.add("mine");
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = String(s.rank);
  const who = document.createElement("span");
  who.className = "who";
  const name = document.createElement("a");
  name.href = `/players/${encodeURIComponent(s.username)}/`;
  name.textContent = s.username;
  who.append(name);
  if (s.on_fire) {
    const fire = document.createElement("span");
    fire.className = "tag fire";
    fire.textContent = "×2";
    who.append(" ", fire);
  }
  if (s.status !== "active") {
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = s.status === "paused" ? _("paused") : _("withdrawn");
    who.append(" ", tag);
  } else if (s.playing) {
    const tag = document.createElement("span");
    tag.className = "tag playing";
    tag.textContent = _("playing");
    who.append(" ", tag);
  }
  const results = document.createElement("span");
  results.className = "results";
  s.results.forEach((r) => results.append(resultLink(r)));
  const points = document.createElement("span");
  points.className = "points";
  points.dataset.testid = "points";
  points.textContent = s.points_text;
  points.title = fmt(ngettext("%(n)s match", "%(n)s matches", s.matches), { n: s.matches });
  li.append(rank, who, results, points);
  return li;
}

function drawStandings() {
  const list = el("standings");
  list.replaceChildren(...state.standings.map(row));
  el("standings-empty").hidden = state.standings.length > 0;
  const podium = el("podium");
  podium.hidden = !state.podium.length;
  el("podium-list").replaceChildren(...state.podium.map((s) => {
    const li = document.createElement("li");
    li.className = `podium-${s.rank}`;
    li.dataset.testid = `podium-${s.rank}`;
    const medal = document.createElement("span");
    medal.className = "medal";
    medal.textContent = String(s.rank);
    li.append(medal, ` ${s.username} · ${fmt(_("%(p)s points"), { p: s.points_text })}`);
    return li;
  }));
}

function mine(standings) {
  const uid = initial.viewer;
  return standings.find((s) => s.user_id === uid);
}

function draw() {
  endsAt = Date.now() + state.seconds_left * 1000;
  drawMe();
  drawStandings();
  tick();
}

// The match I was playing when this page first heard the standings: a newer one is a seat the arena gave me
// since, and the page goes there even if /ws/me/'s "arena_seated" never came (a message lost on the way).
let playingAtOpen;

// Three words may say "seated" at once (the join's answer, /ws/me/, the standings): the page goes once, since a
// second assign of the same address aborts the first navigation half-way.
let leavingFor = null;
function goToTable(matchId) {
  if (leavingFor !== null) return;
  leavingFor = matchId;
  location.assign(`/play/${matchId}/`);
}

function apply(t) {
  state = t;
  const row = mine(t.standings);
  if (row) me = { status: row.status, points_text: row.points_text, playing: row.playing, matches: row.matches };
  draw();
  if (!row) return;
  if (playingAtOpen === undefined) playingAtOpen = row.playing || null;
  else if (row.playing && row.playing !== playingAtOpen && signedIn) goToTable(row.playing);
}

async function act(path) {
  const error = el("arena-error");
  error.hidden = true;
  try {
    const t = await api(`/api/tournaments/${id}/${path}/`, { method: "POST" });
    me = t.me;
    apply(t);
    if (path === "join" && me && me.playing) goToTable(me.playing); // seated at once
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
  }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${proto}://${location.host}/ws/tournaments/${id}/`);
  socket.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "standings") apply(msg.tournament);
  };
  socket.onclose = (ev) => {
    if (ev.code !== 4404) setTimeout(connect, 2000 + Math.random() * 2000);
  };
}

if (signedIn) {
  el("arena-join").addEventListener("click", () => act("join"));
  el("arena-pause").addEventListener("click", () => act("pause"));
  el("arena-withdraw").addEventListener("click", () => {
    if (window.confirm(_("Withdraw from this arena for good?"))) act("withdraw");
  });
  onUserMessage((msg) => {
    if (msg.type === "arena_seated" && msg.tournament_id === id) {
      me = { ...(me || {}), playing: msg.match_id };
      drawMe();
      goToTable(msg.match_id); // seated: to the table, as quick match does
    }
  });
}
draw();
setInterval(tick, 1000);
connect();
