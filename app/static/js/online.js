// "N players online" in the header (once on the page): asked of the server every 30 s while the
// page is in view (never from a hidden tab), and shown wherever an element has `data-online-count`.

import { t } from "./i18n.js";

const EVERY_MS = 30_000;
let players = null;
let timer = null;
let asking = false;

function show() {
  // Nobody online (a first visitor, before choosing a name, is not counted yet) is no news.
  const shown = players !== null && players > 0;
  const text = !shown ? "" : players === 1 ? t("online_one") : t("online_many", { n: players });
  for (const el of document.querySelectorAll("[data-online-count]")) {
    el.textContent = text;
    el.hidden = !shown;
  }
}

async function ask() {
  clearTimeout(timer);
  timer = null;
  if (document.visibilityState !== "visible" || asking) return;
  asking = true;
  try {
    const response = await fetch("/api/online", { headers: { Accept: "application/json" } });
    if (response.ok) players = (await response.json()).players;
  } catch {
    // offline: keep the last count
  } finally {
    asking = false;
  }
  show();
  timer = setTimeout(ask, EVERY_MS);
}

/** Start counting (once), and fill any `data-online-count` element drawn since. */
export function onlineCount() {
  if (timer === null && document.visibilityState === "visible") ask();
  show();
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") ask();
  else {
    clearTimeout(timer);
    timer = null;
  }
});
