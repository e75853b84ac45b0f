// A refusal in the player's language: every error code the server can send has a sentence
// (`err_<code>` in i18n.js); the server's own English message is only a last resort.

import { t } from "./i18n.js";

/** The sentence for an error `code` (its English `message` only for a code never heard of). */
export function errorText(code, message = "") {
  if (!code) return t("offline"); // no answer at all: the network or the server is down
  const key = `err_${code}`;
  const text = t(key);
  return text === key ? t("error", { message: message || code }) : text;
}

/** The sentence for anything `call` (api.js) threw. */
export function failure(error) {
  return errorText(error?.code, error?.message);
}
