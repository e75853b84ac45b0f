// The rules page (/rules): the rules file of the player's language (rules-text.js), every game
// in a section of its own (#<preset>, for the players it seats), every option explained in
// plain words under an anchor the lobby links to (#option-<name>).

import { h, mount } from "./dom.js";
import { lang, t } from "./i18n.js";
import "./i18n-rules.js";
import { loadRules } from "./rules-text.js";

/** The anchor of an option's explanation, e.g. "option-close_fail". */
export function optionAnchor(name) {
  return `option-${name}`;
}

export function rulesPage(root) {
  let alive = true;
  const paragraphs = (lines) => lines.map((line) => h("p", {}, line));

  function section(s) {
    return h(
      "section",
      { id: s.id, dataset: { players: s.players.join(" ") } },
      h("h2", {}, s.title),
      paragraphs(s.paragraphs),
      s.options.length
        ? h(
            "dl",
            { class: "options" },
            s.options.map((o) => [h("dt", { id: optionAnchor(o.name) }, `${o.title} (${o.name})`), h("dd", {}, paragraphs(o.paragraphs))]),
          )
        : null,
    );
  }

  function show(text, language) {
    const contents = h(
      "nav",
      { class: "rules-contents", "aria-label": t("rules_contents") },
      h("ul", {}, text.sections.map((s) => h("li", {}, h("a", { href: `#${s.id}` }, s.title)))),
    );
    mount(
      root,
      h(
        "article",
        { class: "panel rules", lang: language },
        h("h1", {}, text.title),
        paragraphs(text.intro).map((p) => (p.classList.add("rules-intro"), p)),
        contents,
        text.sections.map(section),
      ),
    );
    if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }

  async function render() {
    const language = lang();
    try {
      const text = await loadRules(language);
      if (alive && language === lang()) show(text, language);
    } catch {
      if (alive) mount(root, h("article", { class: "panel rules" }, h("p", {}, t("offline"))));
    }
  }

  render();
  return {
    render,
    leave() {
      alive = false;
    },
  };
}
