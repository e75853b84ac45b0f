// Optional sounds, off until the player switches them on: a soft tick for a card played, a
// brighter one when it becomes your turn. Made with Web Audio, no sound files.

const KEY = "talon.sound";
const TONES = {
  card: [[520, 0.05]],
  turn: [[660, 0.08], [880, 0.1]],
};

let context = null;
let made = 0;

export function soundOn() {
  return localStorage.getItem(KEY) === "1";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "1" : "0");
}

/** How many sounds this page has made (the preference says whether any are made at all). */
export function soundsMade() {
  return made;
}

/** Play the sound of `kind` ("card" or "turn") if the player wants sounds. */
export function sound(kind) {
  if (!soundOn() || !TONES[kind]) return;
  made += 1;
  try {
    context = context || new AudioContext();
    let at = context.currentTime;
    for (const [frequency, length] of TONES[kind]) {
      const tone = context.createOscillator();
      const volume = context.createGain();
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.08, at);
      volume.gain.exponentialRampToValueAtTime(0.001, at + length);
      tone.connect(volume).connect(context.destination);
      tone.start(at);
      tone.stop(at + length);
      at += length;
    }
  } catch {
    // No audio device or no Web Audio: the game goes on silently.
  }
}
