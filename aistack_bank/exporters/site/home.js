// The home page of a bank of several topics: each topic's progress in this language, read
// from the answers its topic page (or its category page) kept in this browser.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("home-data").textContent);

  for (const topic of data.topics) {
    const figure = document.querySelector('[data-progress="' + CSS.escape(topic.id) + '"]');
    if (!figure) continue;
    const ids = new Set(topic.questions);
    const answered = new Set();
    try {
      const saved = JSON.parse(localStorage.getItem(topic.key) || "null");
      if (saved && saved.version === 1 && Array.isArray(saved.answers)) {
        for (const a of saved.answers) {
          if (a && a.language === data.language && typeof a.question === "string" && ids.has(a.question)) answered.add(a.question);
        }
      }
    } catch (error) {
      continue; // unreadable or blocked storage: the page shows no progress
    }
    figure.textContent = data.ui["site.stats.answered.value"]
      .replace("{answered}", String(answered.size)).replace("{total}", String(ids.size));
  }
  try {
    localStorage.setItem("aistack-bank/lang", document.documentElement.lang);
  } catch (error) {
    // The site index then follows the browser's languages only.
  }
})();
