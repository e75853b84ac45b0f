// Passkeys in the browser: the server's WebAuthn options (JSON, base64url fields) become the
// binary ones navigator.credentials wants, and the credential it gives back becomes JSON
// again for the server (app/players/passkeys.py checks it).

import { call } from "./api.js";

function bytes(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
}

function text(buffer) {
  const binary = String.fromCharCode(...new Uint8Array(buffer));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (list || []).map((c) => ({ ...c, id: bytes(c.id) }));

/** True when the page is at a numeric address (127.0.0.1, [::1], 192.168.1.20): browsers
 * refuse an IP address as a passkey's relying party, so passkeys cannot work there. */
export function atNumericAddress(hostname = location.hostname) {
  return /^[\d.]+$/.test(hostname) || hostname.includes(":") || hostname.startsWith("[");
}

/** Where this page is at a name passkeys accept: the same page at localhost when the page is
 * at this machine's loopback address, else null (the site's name is the server's to say). */
export function namedAddress() {
  if (!["127.0.0.1", "[::1]", "::1"].includes(location.hostname)) return null;
  return `${location.protocol}//localhost${location.port ? `:${location.port}` : ""}${location.pathname}`;
}

/** True when this browser can use passkeys here (a secure page: HTTPS, or localhost; at a
 * name, not a numeric address). */
export function passkeysOffered() {
  return Boolean(window.isSecureContext && window.PublicKeyCredential && navigator.credentials) && !atNumericAddress();
}

function answer(credential, response) {
  return {
    id: credential.id,
    rawId: text(credential.rawId),
    type: credential.type,
    response,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment: credential.authenticatorAttachment ?? null,
  };
}

/** Create a passkey for the signed-in account and register it; the server's record of it. */
export async function addPasskey() {
  const options = await call("POST", "/api/accounts/passkeys/options");
  const publicKey = {
    ...options,
    challenge: bytes(options.challenge),
    user: { ...options.user, id: bytes(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  };
  const credential = await navigator.credentials.create({ publicKey });
  const r = credential.response;
  const response = {
    clientDataJSON: text(r.clientDataJSON),
    attestationObject: text(r.attestationObject),
    transports: r.getTransports ? r.getTransports() : [],
  };
  return call("POST", "/api/accounts/passkeys", { credential: answer(credential, response) });
}

/** Sign in with a passkey (of the account `handle`, or any this device holds for the site);
 *  the new identity {id, name, handle, token}. */
export async function signInWithPasskey(handle) {
  const options = await call("POST", "/api/accounts/passkeys/sign-in/options", { handle: handle || null });
  const publicKey = {
    ...options,
    challenge: bytes(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  };
  const credential = await navigator.credentials.get({ publicKey });
  const r = credential.response;
  const response = {
    clientDataJSON: text(r.clientDataJSON),
    authenticatorData: text(r.authenticatorData),
    signature: text(r.signature),
    userHandle: r.userHandle ? text(r.userHandle) : null,
  };
  return call("POST", "/api/accounts/passkeys/sign-in", { credential: answer(credential, response) });
}
