// The rules page (/rules): docs/rules.md's two-player content in the player's language, every
// option explained in plain words under an anchor the lobby links to (#option-<name>).

import { h, mount } from "./dom.js";
import { lang, t } from "./i18n.js";
import { RULES_TEXT } from "./rules-text.js";

/** The anchor of an option's explanation, e.g. "option-close_fail". */
export function optionAnchor(name) {
  return `option-${name}`;
}

/** An option's title in words (the lobby's own label when it has one), with its name. */
function optionTitle(name, text) {
  const label = t(name);
  return `${label === name ? text.option_titles[name] || name : label} (${name})`;
}

export function rulesPage(root) {
  function render() {
    const text = RULES_TEXT[lang()] || RULES_TEXT.en;
    const paragraphs = (lines) => lines.map((line) => h("p", {}, line));
    mount(
      root,
      h(
        "article",
        { class: "panel rules", lang: lang() },
        h("h1", {}, text.title),
        h("p", { class: "rules-intro" }, text.intro),
        text.sections.map((s) =>
          h("section", { id: s.id, dataset: { players: s.players.join(" ") } }, h("h2", {}, s.title), paragraphs(s.text)),
        ),
        h("section", { id: "variants" }, h("h2", {}, text.variants.title), paragraphs(text.variants.text)),
        h(
          "section",
          { id: "options" },
          h("h2", {}, text.options_title),
          h(
            "dl",
            { class: "options" },
            Object.entries(text.options).map(([name, explanation]) => [
              h("dt", { id: optionAnchor(name) }, optionTitle(name, text)),
              h("dd", {}, explanation),
            ]),
          ),
        ),
      ),
    );
    if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }

  render();
  return { render, leave() {} };
}
