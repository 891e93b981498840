// The language chooser (site index): open the learner's language, if the site has it.
// The links work on their own; this only saves a click. A language the learner picked
// before (remembered by the topic pages) wins over the browser's preferences. The chooser
// replaces itself in the history, so that Back leaves it instead of landing on it again.
(function () {
  "use strict";
  const links = Array.from(document.querySelectorAll("a[hreflang]"));
  const byTag = new Map(links.map((link) => [link.hreflang.toLowerCase(), link]));

  for (const link of links) {
    link.addEventListener("click", (event) => {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      location.replace(link.href);
    });
  }

  // Coming back here with Back or Forward: stay, the learner wants to choose.
  const navigation = (performance.getEntriesByType && performance.getEntriesByType("navigation")[0]) || null;
  if (navigation && navigation.type === "back_forward") return;

  function find(tag) {
    if (!tag) return null;
    tag = String(tag).toLowerCase();
    return byTag.get(tag) || byTag.get(tag.split("-")[0]) || null;
  }

  let saved = null;
  try {
    saved = localStorage.getItem("aistack-bank/lang");
  } catch (error) {
    // Storage can be blocked; the browser's languages still apply.
  }
  const wanted = [saved].concat(Array.from(navigator.languages || [navigator.language]));
  for (const tag of wanted) {
    const link = find(tag);
    if (link) {
      location.replace(link.href);
      return;
    }
  }
})();
