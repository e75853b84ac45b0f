// The rules in plain words, read from one file per language (/rules/<lang>.md, served from
// app/static/rules). Those files are the only copy of the text: the rules page renders them,
// and docs link to them. The format is a small part of Markdown, so the files read well as
// documents too:
//
//   # Title                       the page's heading; the paragraph after it is the intro
//   ## Section title              a section, with on its next line
//   <!-- section: id; players: 2 3 -->   its anchor and the player counts it is about
//   ### Option title              inside a section: an option's explanation, with
//   <!-- option: name -->         the option's name (its anchor is #option-<name>)
//
// Other lines are paragraphs, separated by blank lines; other comments are skipped.

export const RULE_LANGUAGES = ["en", "de", "pl", "it", "es"];

const cache = new Map();

/** The rules of `language` (English when it has none), parsed; fetched once a page. */
export function loadRules(language) {
  const code = RULE_LANGUAGES.includes(language) ? language : "en";
  if (!cache.has(code)) {
    const text = fetch(`/rules/${code}.md`).then((response) => {
      if (!response.ok) throw new Error(`rules ${code}: ${response.status}`);
      return response.text();
    });
    cache.set(code, text.then(parseRules));
    text.catch(() => cache.delete(code));
  }
  return cache.get(code);
}

/** A rules file as {title, intro, sections: [{id, players, title, paragraphs, options}]},
 * each option {name, title, paragraphs}. */
export function parseRules(markdown) {
  const rules = { title: "", intro: [], sections: [] };
  let target = rules.intro; // where the next paragraph goes
  let pending = null; // the heading waiting for its marker line
  let paragraph = [];
  const flush = () => {
    if (paragraph.length) target.push(paragraph.join(" "));
    paragraph = [];
  };
  for (const raw of markdown.split("\n")) {
    const line = raw.trim();
    const marker = line.match(/^<!--\s*(section|option):\s*(.*?)\s*-->$/);
    if (marker && pending) {
      const fields = Object.fromEntries(
        marker[2].split(";").map((part) => part.split(":").map((s) => s.trim())),
      );
      if (marker[1] === "section") {
        const section = { id: marker[2].split(";")[0].trim(), players: (fields.players || "").split(/\s+/).filter(Boolean).map(Number), title: pending, paragraphs: [], options: [] };
        rules.sections.push(section);
        target = section.paragraphs;
      } else {
        const option = { name: marker[2].trim(), title: pending, paragraphs: [] };
        rules.sections.at(-1).options.push(option);
        target = option.paragraphs;
      }
      pending = null;
      continue;
    }
    if (line.startsWith("<!--")) continue;
    const heading = line.match(/^(#{1,3}) (.*)$/);
    if (heading) {
      flush();
      if (heading[1] === "#") rules.title = heading[2];
      else pending = heading[2];
      continue;
    }
    if (!line) flush();
    else paragraph.push(line);
  }
  flush();
  return rules;
}
