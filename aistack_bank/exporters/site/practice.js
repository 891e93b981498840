// The practice page: practice sessions, progress saved in this browser, keyboard use.
// Text from the bank only ever reaches the page through textContent, never as markup.
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("bank-data").textContent);
  const questions = data.questions;
  const byId = new Map(questions.map((q) => [q.id, q]));
  const LETTERS = "ABCDEFGHIJ";

  // --- Small helpers ---------------------------------------------------------------------

  function $(id) {
    return document.getElementById(id);
  }

  function t(key, values) {
    return data.ui[key].replace(/\{([a-z_]+)\}/g, (match, name) =>
      values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : match);
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function icon(symbol) {
    const node = el("span", "icon", symbol);
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  function shuffle(list) {
    const out = list.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  // --- Progress: the last result of each question (1 right, 0 wrong) ---------------------

  const store = {
    read() {
      try {
        const saved = JSON.parse(localStorage.getItem(data.storageKey) || "null");
        const last = {};
        if (saved && saved.version === 1 && saved.last && typeof saved.last === "object") {
          for (const [id, result] of Object.entries(saved.last)) {
            if (byId.has(id) && (result === 0 || result === 1)) last[id] = result;
          }
        }
        return last;
      } catch (error) {
        return {};
      }
    },
    write(last) {
      try {
        localStorage.setItem(data.storageKey, JSON.stringify({ version: 1, last: last }));
      } catch (error) {
        // Storage is full or blocked: progress lasts until the page closes.
      }
    },
    clear() {
      try {
        localStorage.removeItem(data.storageKey);
      } catch (error) {
        // Nothing saved, nothing to clear.
      }
    },
  };

  let last = store.read();
  try {
    localStorage.setItem("aistack-bank/lang", data.lang);
  } catch (error) {
    // The site index then follows the browser's languages only.
  }

  function weakIds() {
    return questions.filter((q) => last[q.id] === 0).map((q) => q.id);
  }

  // --- The topic view ----------------------------------------------------------------------

  const views = { topic: $("topic"), quiz: $("quiz"), results: $("results") };

  function show(name) {
    for (const [key, view] of Object.entries(views)) view.hidden = key !== name;
    window.scrollTo(0, 0);
  }

  function renderTopic() {
    const ids = Object.keys(last);
    const right = ids.filter((id) => last[id] === 1).length;
    const accuracy = $("stat-accuracy");
    if (ids.length) {
      accuracy.textContent = t("site.stats.accuracy.value", { percent: Math.round((100 * right) / ids.length) });
    } else {
      accuracy.replaceChildren(icon("—"), el("span", "visually-hidden", t("site.stats.accuracy.none")));
    }
    $("stat-answered").textContent = t("site.stats.answered.value", { answered: ids.length, total: questions.length });

    const weak = weakIds().length;
    $("practice-weak").disabled = weak === 0;
    $("practice-weak-count").hidden = weak === 0;
    $("practice-weak-count").textContent = weak ? t("site.weak.count", { count: weak }) : "";
    $("weak-status").hidden = weak > 0;
    $("weak-status").textContent = weak ? "" : t("site.weak.none");

    for (const item of $("question-list").children) {
      const result = last[item.dataset.qid];
      let mark = item.querySelector(".q-status");
      if (result === undefined) {
        if (mark) mark.remove();
        continue;
      }
      if (!mark) {
        mark = el("span");
        item.append(mark);
      }
      mark.className = "q-status " + (result ? "right" : "wrong");
      const label = t(result ? "site.questions.right" : "site.questions.wrong");
      mark.replaceChildren(icon(result ? "✓" : "✗"), el("span", "visually-hidden", " (" + label + ")"));
    }
  }

  // --- A practice session -------------------------------------------------------------------

  let session = null;
  let finished = null;

  function start(title, ids, opener) {
    session = { title: title, ids: shuffle(ids), index: 0, order: [], answered: false, right: 0, missed: [], opener: opener };
    finished = null;
    $("quiz-title").textContent = title;
    $("quiz-bar").max = session.ids.length;
    show("quiz");
    showQuestion();
  }

  function current() {
    return byId.get(session.ids[session.index]);
  }

  function showQuestion() {
    const q = current();
    session.answered = false;
    session.order = shuffle(q.options);
    $("question").dataset.qid = q.id;
    $("quiz-count").textContent = t("site.quiz.progress", { current: session.index + 1, total: session.ids.length });
    $("quiz-bar").value = session.index;
    $("stem").textContent = q.stem;
    $("options").replaceChildren(...session.order.map((option, position) => {
      const button = el("button", "option");
      button.type = "button";
      button.dataset.option = option.id;
      button.append(el("span", "option-key", LETTERS[position]), el("span", "option-text", option.text));
      button.addEventListener("click", () => answer(position));
      const item = el("li");
      item.append(button);
      return item;
    }));
    const feedback = $("feedback");
    feedback.className = "feedback";
    feedback.replaceChildren();
    $("next").hidden = true;
    const count = session.order.length;
    $("keys-hint").textContent = t("site.quiz.keys", { count: count, letter: LETTERS[count - 1] });
    window.scrollTo(0, 0);
    $("stem").focus({ preventScroll: true });
  }

  function labelled(label, text) {
    const line = el("p");
    line.append(el("span", "label", label), " " + text);
    return line;
  }

  function answer(position) {
    if (!session || session.answered || position >= session.order.length) return;
    const q = current();
    const chosen = session.order[position];
    const correctAt = session.order.findIndex((option) => option.id === q.correct);
    const right = position === correctAt;
    session.answered = true;
    if (right) session.right += 1;
    else session.missed.push(q.id);
    last[q.id] = right ? 1 : 0;
    store.write(last);
    $("quiz-bar").value = session.index + 1;

    const next = $("next");
    next.textContent = t(session.index + 1 < session.ids.length ? "site.quiz.next" : "site.quiz.finish");
    next.hidden = false;
    next.focus({ preventScroll: true });

    $("options").querySelectorAll("button").forEach((button, index) => {
      button.disabled = true;
      if (index === correctAt || index === position) {
        const isCorrect = index === correctAt;
        const mark = icon(isCorrect ? "✓" : "✗");
        mark.classList.add("option-mark");
        button.classList.add(isCorrect ? "is-correct" : "is-wrong");
        button.append(mark);
      }
    });

    const verdict = el("p", "verdict");
    verdict.append(icon(right ? "✓ " : "✗ "), t(right ? "site.feedback.right" : "site.feedback.wrong"));
    const parts = [verdict];
    const correctLine = labelled(t("site.feedback.correct_answer"), LETTERS[correctAt] + ". " + session.order[correctAt].text);
    if (!right) parts.push(labelled(t("site.feedback.your_answer"), LETTERS[position] + ". " + chosen.text));
    if (!right && chosen.feedback) parts.push(el("p", "option-feedback", chosen.feedback));
    parts.push(correctLine);
    if (right && chosen.feedback) parts.push(el("p", "option-feedback", chosen.feedback));
    parts.push(el("h3", null, t("site.feedback.explanation")), el("p", "explanation", q.explanation));
    const feedback = $("feedback");
    feedback.className = "feedback " + (right ? "is-right" : "is-wrong");
    feedback.replaceChildren(...parts);
    feedback.scrollIntoView({ block: "nearest" });
  }

  function next() {
    if (!session || !session.answered) return;
    session.index += 1;
    if (session.index < session.ids.length) showQuestion();
    else finish();
  }

  function finish() {
    const done = session;
    session = null;
    finished = done;
    const score = t("site.result.score", { score: done.right, total: done.ids.length });
    $("results-score").textContent = score;
    $("results-perfect").hidden = done.missed.length > 0;
    $("results-missed-box").hidden = done.missed.length === 0;
    $("results-missed").replaceChildren(...done.missed.map((id) => el("li", null, byId.get(id).stem)));
    $("retry-missed").hidden = done.missed.length === 0;
    $("retry-missed").textContent = t("site.result.retry", { count: done.missed.length });
    renderTopic();
    show("results");
    $("results-title").focus();
    $("announcer").textContent = score;
  }

  function backToTopic() {
    const opener = (session && session.opener) || (finished && finished.opener);
    session = null;
    finished = null;
    $("announcer").textContent = "";
    renderTopic();
    show("topic");
    if (opener && !opener.disabled) opener.focus();
    else $("topic-title").focus();
  }

  // --- Wiring -------------------------------------------------------------------------------

  $("practice-10").addEventListener("click", (event) => {
    const ids = shuffle(questions.map((q) => q.id)).slice(0, data.practiceCount);
    start(t("site.practice10.title"), ids, event.currentTarget);
  });
  $("practice-all").addEventListener("click", (event) => {
    start(t("site.practice_all.title"), questions.map((q) => q.id), event.currentTarget);
  });
  $("practice-weak").addEventListener("click", (event) => {
    const ids = weakIds();
    if (ids.length) start(t("site.weak.title"), ids, event.currentTarget);
  });
  $("retry-missed").addEventListener("click", () => {
    if (finished && finished.missed.length) start(t("site.retry.title"), finished.missed, finished.opener);
  });
  $("next").addEventListener("click", next);
  $("quiz-quit").addEventListener("click", backToTopic);
  $("results-back").addEventListener("click", backToTopic);

  function toggleReset(open) {
    $("reset-confirm").hidden = !open;
    $("reset").setAttribute("aria-expanded", String(open));
    $("reset-status").textContent = "";
    (open ? $("reset-no") : $("reset")).focus();
  }
  $("reset").addEventListener("click", () => toggleReset($("reset-confirm").hidden));
  $("reset-no").addEventListener("click", () => toggleReset(false));
  $("reset-yes").addEventListener("click", () => {
    last = {};
    store.clear();
    renderTopic();
    toggleReset(false);
    $("reset-status").textContent = t("site.reset.done");
  });

  // 1–9 or a–z answer the question on screen; Enter goes on once it is answered.
  document.addEventListener("keydown", (event) => {
    if (!session || views.quiz.hidden || event.ctrlKey || event.metaKey || event.altKey) return;
    if (!session.answered) {
      const key = event.key.length === 1 ? event.key.toLowerCase() : "";
      let position = -1;
      if (key >= "1" && key <= "9") position = key.charCodeAt(0) - 49;
      else if (key >= "a" && key <= "z") position = key.charCodeAt(0) - 97;
      if (position >= 0 && position < session.order.length) {
        event.preventDefault();
        answer(position);
      }
    } else if (event.key === "Enter") {
      const target = event.target;
      const otherControl = target instanceof HTMLButtonElement ? target.id !== "next" : target instanceof HTMLAnchorElement;
      if (!otherControl) {
        event.preventDefault();
        next();
      }
    }
  });

  $("practice-10").disabled = false;
  $("practice-all").disabled = false;
  $("progress").hidden = false;
  renderTopic();
})();
