// REST calls and the guest identity (name, id and token kept in localStorage).

const KEY = "talon.player";

export function me() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "null");
    return saved && saved.token && saved.id ? saved : null;
  } catch {
    return null;
  }
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function call(method, path, body) {
  const headers = {};
  const player = me();
  if (player) headers.Authorization = `Bearer ${player.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: "http_error", message: response.statusText };
    throw new ApiError(response.status, error.code, error.message);
  }
  return data;
}

/** Keep this identity ({id, name, handle?, token}) in this browser; null forgets it. The page
 * hears of it ("talon:identity" on window: the header shows the new name at once). */
export function remember(identity) {
  if (identity) localStorage.setItem(KEY, JSON.stringify(identity));
  else localStorage.removeItem(KEY);
  window.dispatchEvent(new Event("talon:identity"));
}

/** Play as `name`: a new guest the first time, the same player renamed afterwards (its
 *  history and ratings stay), a new guest only when the old token no longer works. */
export async function identify(name) {
  const current = me();
  if (current && current.name === name) return current;
  if (current) {
    try {
      const renamed = await call("PATCH", "/api/players/me", { name });
      remember({ ...current, ...renamed });
      return me();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
    }
  }
  const created = await call("POST", "/api/players", { name });
  remember(created);
  return created;
}

export function forget() {
  remember(null);
}
