// The table's options, stored per account (GET/PATCH /api/me/settings/): card speed, auto-play of a forced
// card, sound and vibration. The dialog opens from the table's "Options" button. Sounds are synthesised
// with Web Audio (no files); the audio starts only after a tap or a key on the page (browsers' autoplay
// rules), and the vibration asks `navigator.vibrate` on the player's turn where the device has it.
import { api } from "../api.js";
import { _ } from "../i18n.js";
import { setSpeed } from "./pacer.js";

export const DEFAULTS = { card_speed: "normal", auto_play: true, sound: true, vibration: true, tap_twice: false };

export function createOptions(app, { modal, onChange = () => {} }) {
  const opts = { ...DEFAULTS };
  const dialog = document.getElementById("options-dialog");
  const form = dialog && dialog.querySelector("form");
  let loaded = false;
  let gesture = false; // a tap or a key on this page: sounds may start
  let audio = null;

  function apply() {
    setSpeed(opts.card_speed);
    app.dataset.cardSpeed = opts.card_speed;
    app.dataset.autoPlay = opts.auto_play ? "1" : "0";
    app.dataset.tapTwice = opts.tap_twice ? "1" : "0"; // input.js: a first tap raises a card, a second plays it
    if (!form) return;
    for (const el of form.elements) {
      if (el.name === "card_speed") el.checked = el.value === opts.card_speed;
      else if (el.name in DEFAULTS) el.checked = Boolean(opts[el.name]);
    }
  }

  // the last options the server gave, for the offline table (no server to ask)
  const remember = () => { try { localStorage.setItem("cb-options", JSON.stringify(opts)); } catch { /* full */ } };
  const remembered = () => { try { return JSON.parse(localStorage.getItem("cb-options")) || {}; } catch { return {}; } };

  async function load() {
    try {
      Object.assign(opts, await api("/api/me/settings/"));
      remember();
    } catch {
      Object.assign(opts, remembered()); // offline, or signed out: as last seen, else the defaults
    }
    loaded = true;
    apply();
  }

  async function change(patch) {
    Object.assign(opts, patch);
    apply();
    onChange();
    const status = dialog.querySelector(".options-status");
    remember();
    try {
      Object.assign(opts, await api("/api/me/settings/", { method: "PATCH", body: patch }));
      remember();
      status.textContent = _("Saved");
    } catch {
      status.textContent = _("Not saved: the server did not answer.");
    }
    apply();
  }

  if (form) {
    form.addEventListener("change", (ev) => {
      const el = ev.target;
      if (el.name === "card_speed") change({ card_speed: el.value });
      else if (el.name in DEFAULTS) change({ [el.name]: el.checked });
      if (el.name === "sound" && el.checked) beep("turn");
    });
    form.addEventListener("submit", (ev) => ev.preventDefault());
    const dlg = modal(dialog);
    app.querySelector("#options-btn").addEventListener("click", () => {
      dialog.querySelector(".options-status").textContent = "";
      dlg.open();
    });
  }

  const unlock = () => {
    gesture = true;
    window.removeEventListener("pointerdown", unlock, true);
    window.removeEventListener("keydown", unlock, true);
  };
  window.addEventListener("pointerdown", unlock, true);
  window.addEventListener("keydown", unlock, true);

  // ---- sounds: a few short notes, synthesised ---------------------------------------------------
  const NOTES = {
    play: [[0, 220, 0.05, "triangle", 0.18]],
    bid: [[0, 660, 0.07, "sine", 0.12]],
    trick: [[0, 523, 0.08, "sine", 0.14], [0.09, 784, 0.12, "sine", 0.14]],
    turn: [[0, 880, 0.09, "sine", 0.12], [0.12, 1175, 0.14, "sine", 0.12]],
    made: [[0, 523, 0.1, "sine", 0.14], [0.1, 659, 0.1, "sine", 0.14], [0.2, 784, 0.18, "sine", 0.14]],
    broken: [[0, 392, 0.14, "sawtooth", 0.08], [0.15, 294, 0.24, "sawtooth", 0.08]],
  };

  function beep(kind) {
    app.dataset.lastSound = kind; // what the table would have sounded (the browser tests read it)
    if (!opts.sound || !gesture) return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    try {
      audio ||= new Ctx();
      if (audio.state === "suspended") audio.resume();
      const now = audio.currentTime;
      for (const [at, freq, len, type, vol] of NOTES[kind] || []) {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = type;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(vol, now + at);
        gain.gain.exponentialRampToValueAtTime(0.001, now + at + len);
        osc.connect(gain).connect(audio.destination);
        osc.start(now + at);
        osc.stop(now + at + len + 0.02);
      }
    } catch { /* no audio here */ }
  }

  function myTurn() {
    beep("turn");
    if (opts.vibration && gesture && typeof navigator.vibrate === "function") {
      try { navigator.vibrate(60); } catch { /* not allowed */ }
    }
  }

  // A frame drawn with the event that produced it: the sound that goes with it.
  function onEvent(frame, e) {
    if (!e) return;
    if (e.t === "play") beep("play");
    else if (e.t === "bid" && e.seat !== frame.seat) beep("bid");
    else if (e.t === "trick") beep("trick");
    else if (e.t === "deal" && e.record && frame.seat != null) {
      const s = frame.seat;
      beep(e.record.tricks_won[s] >= e.record.bids[s] ? "made" : "broken");
    }
  }

  apply();
  return {
    load,
    get values() { return { ...opts }; },
    get loaded() { return loaded; },
    onEvent,
    myTurn,
  };
}
