// JSON API helpers: session cookie + CSRF header.
export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (m) return decodeURIComponent(m[1]);
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.detail) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
    this.code = this.body.code;
  }
}

export async function api(path, { method = "GET", body } = {}) {
  const opts = {
    method,
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.headers["X-CSRFToken"] = csrfToken();
    opts.body = JSON.stringify(body);
  } else if (method !== "GET") {
    opts.headers["X-CSRFToken"] = csrfToken();
  }
  const res = await fetch(path, opts);
  let data = null;
  const text = await res.text();
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { detail: text.slice(0, 200) };
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export const matchUrl = (id) => `/api/matches/${encodeURIComponent(id)}/`;

export async function createMatch(bot) {
  const body = { opponents: "bots" };
  if (bot) body.bot = bot;
  return api("/api/matches/", { method: "POST", body });
}
