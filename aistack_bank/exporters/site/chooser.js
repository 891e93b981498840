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

  // RFC 4647 lookup: the tag itself, then shorter and shorter prefixes (zh-hant-tw, zh-hant,
  // zh); failing that, another region of the same language (pt finds pt-BR). A catalog code
  // (pt_BR) is read as the tag it names (pt-BR).
  function find(tag) {
    if (!tag) return null;
    const parts = String(tag).toLowerCase().replace(/_/g, "-").split("-");
    for (let n = parts.length; n > 0; n--) {
      const link = byTag.get(parts.slice(0, n).join("-"));
      if (link) return link;
    }
    return links.find((link) => link.hreflang.toLowerCase().split("-")[0] === parts[0]) || null;
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
