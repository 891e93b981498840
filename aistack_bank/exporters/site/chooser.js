// The language chooser (site index): open the learner's language, if the site has it.
// The links work on their own; this only saves a click. A language the learner picked
// before (remembered by the topic pages) wins over the browser's preferences.
(function () {
  "use strict";
  const links = Array.from(document.querySelectorAll("a[hreflang]"));
  const byTag = new Map(links.map((link) => [link.hreflang.toLowerCase(), link]));

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
