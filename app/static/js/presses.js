// A press (mouse, touch or pen) on a page that redraws itself from socket frames holds its
// redraws until the press's click has been handled. A redraw replaces the page's elements, and
// a button replaced between press and release gets no click: the press would be lost (at a
// table where others move every second, often).

const LONGEST_HOLD = 3000; // ms: a press held longer, or a release never seen, redraws anyway

/**
 * Hold ``redraw`` while a press that began inside ``root`` lasts.
 * @param {HTMLElement} root  the page's element
 * @param {() => void} redraw  called once when a press ends if a redraw was held meanwhile
 * @returns {{held: () => boolean, stop: () => void}}  held(): whether a press lasts (a redraw
 *   asked for meanwhile comes when it ends); stop(): when the page is left
 */
export function redrawsAfterPresses(root, redraw) {
  let pressing = false;
  let presses = 0; // counts presses: a release ends its own press, never a later one
  let wanted = false;
  let timer = null;
  const end = () => {
    if (!pressing) return;
    pressing = false;
    clearTimeout(timer);
    if (wanted) {
      wanted = false;
      redraw();
    }
  };
  const pressed = () => {
    presses += 1;
    pressing = true;
    clearTimeout(timer);
    timer = setTimeout(end, LONGEST_HOLD);
  };
  // The click comes right after the release, in the same task: end the hold after it, unless
  // another press began meanwhile (a quick second click on a busy page, whose timers wait
  // behind its input): that press holds on until its own release.
  const released = () => {
    const press = presses;
    setTimeout(() => {
      if (press === presses) end();
    }, 0);
  };
  root.addEventListener("pointerdown", pressed, true);
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);
  return {
    held() {
      if (pressing) wanted = true;
      return pressing;
    },
    stop() {
      clearTimeout(timer);
      pressing = false;
      root.removeEventListener("pointerdown", pressed, true);
      document.removeEventListener("pointerup", released, true);
      document.removeEventListener("pointercancel", released, true);
    },
  };
}
