// The practice page: practice runs, spaced review, results, progress kept in this browser.
// Text from the bank only ever reaches the page through textContent, never as markup.
(function () {
  "use strict";

  const data = JSON.parse(document.getElementById("bank-data").textContent);
  const questions = data.questions;
  const byId = new Map(questions.map((q) => [q.id, q]));
  // Texts of the bank shown in English for want of a translation: marked lang="en".
  const english = new Set(data.english || []);
  const LETTERS = "ABCDEFGHIJ";
  const DAY = 86400000;
  // Leitner boxes: a wrong answer puts a question back in box 1 (due at once), each right
  // answer moves it up one box; the box sets how many days pass before it is due again.
  const INTERVAL_DAYS = [0, 0, 1, 3, 7, 16, 35];
  const TOP_BOX = INTERVAL_DAYS.length - 1;

  // --- Small helpers ---------------------------------------------------------------------

  function $(id) {
    return document.getElementById(id);
  }

  // A text value (a title, tags, a file name: the bank's or the learner's words) goes into an
  // interface string between FSI and PDI, so that text of the other direction (English in an
  // Arabic sentence, or the reverse) cannot reorder the words around it. Numbers go in as they are.
  function t(key, values) {
    return data.ui[key].replace(/\{([a-z_]+)\}/g, (match, name) => {
      if (!values || !Object.prototype.hasOwnProperty.call(values, name)) return match;
      const value = values[name];
      return typeof value === "string" ? "\u2068" + value + "\u2069" : String(value);
    });
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) setText(node, text);
    return node;
  }

  function setText(node, text) {
    node.textContent = text;
    if (english.has(text)) node.lang = "en";
    else if (english.size) node.removeAttribute("lang");
  }

  function icon(symbol) {
    const node = el("span", "icon", symbol);
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  function hidden(text) {
    return el("span", "visually-hidden", text);
  }

  function shuffle(list) {
    const out = list.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  // A short run: the first `count` of `ids` (in their order), with at most one question of each
  // group of `groups` while questions outside it are left (a published stem may state the
  // answer of a question of its group); the questions held back come last.
  function drawApart(ids, count, groups) {
    const groupOf = new Map();
    (groups || []).forEach((group, index) => group.forEach((id) => groupOf.set(id, index)));
    const taken = new Set();
    const first = [];
    const held = [];
    ids.forEach((id) => {
      const group = groupOf.get(id);
      if (group === undefined || !taken.has(group)) {
        if (group !== undefined) taken.add(group);
        first.push(id);
      } else {
        held.push(id);
      }
    });
    return first.concat(held).slice(0, count);
  }

  function randomId() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function isoNow() {
    return new Date().toISOString().replace(/\.\d+Z$/, "Z");
  }

  function percent(right, count) {
    return t("site.stats.accuracy.value", { percent: Math.round((100 * right) / count) });
  }

  // --- Stored answers: every answer given in this browser, in every language --------------

  const LEARNER_KEY = "aistack-bank/learner";
  let memoryLearner = null;

  function learnerId() {
    try {
      let id = localStorage.getItem(LEARNER_KEY);
      if (!id || !/^[0-9a-f]{32}$/.test(id)) {
        id = randomId();
        localStorage.setItem(LEARNER_KEY, id);
      }
      return id;
    } catch (error) {
      memoryLearner = memoryLearner || randomId();
      return memoryLearner;
    }
  }

  // An answer given on this version of the site, or a mark migrated from the previous one: that
  // kept only whether each question's last answer was right, so a migrated answer has no time,
  // no run and (when wrong) no choice, and carries the time of its migration for the schedule.
  function validAnswer(a) {
    if (!a || typeof a !== "object" || typeof a.question !== "string" || typeof a.language !== "string" ||
      typeof a.correct !== "boolean") return false;
    if (typeof a.migrated_at === "string") {
      return a.answered_at === null && a.attempt === null && (a.choice === null || typeof a.choice === "string");
    }
    return typeof a.choice === "string" && typeof a.answered_at === "string" && typeof a.attempt === "string";
  }

  // A category page practises the questions of several topics: each answer stays under its
  // topic's key (data.storageKeys, data.questionKeys), so the topic pages show it too.
  const STORAGE_KEYS = data.storageKeys || [data.storageKey];
  const sourceOf = new WeakMap();

  function keyOf(answer) {
    return sourceOf.get(answer) || (data.questionKeys && data.questionKeys[answer.question]) || data.storageKey;
  }

  const store = {
    answers: [],
    read() {
      const answers = [];
      for (const key of STORAGE_KEYS) {
        try {
          const saved = JSON.parse(localStorage.getItem(key) || "null");
          if (saved && saved.version === 1 && Array.isArray(saved.answers)) {
            for (const a of saved.answers.filter(validAnswer)) {
              sourceOf.set(a, key);
              answers.push(a);
            }
          }
        } catch (error) {
          // Unreadable: start afresh (the next write replaces it).
        }
      }
      this.answers = answers;
    },
    // Whether the answers are now stored (read back to be sure).
    write() {
      let stored = true;
      for (const key of STORAGE_KEYS) {
        const text = JSON.stringify({ version: 1, answers: this.answers.filter((a) => keyOf(a) === key) });
        try {
          localStorage.setItem(key, text);
          stored = stored && localStorage.getItem(key) === text;
        } catch (error) {
          stored = false; // storage is full or blocked: the answers last until the page closes
        }
      }
      return stored;
    },
    add(answer) {
      this.read(); // another tab may have added answers meanwhile
      this.answers.push(answer);
      this.write();
    },
    clearLanguage() {
      this.read();
      this.answers = this.answers.filter((a) => a.language !== data.language);
      this.write();
    },
  };

  // The previous version of the site kept, per language, whether the last answer to each
  // question was right: {"version": 1, "last": {"<question id>": 1 | 0}}. Those marks become
  // migrated answers, ahead of every answer given since; an old key is removed only once the
  // history holding its marks is stored, so a failed write loses nothing (it is tried again on
  // the next load). A mark already migrated with the same result is not added twice.
  function migrateOldProgress() {
    const found = [];
    try {
      for (const [language, key] of Object.entries(data.legacyKeys || {})) {
        const text = localStorage.getItem(key);
        if (text !== null) found.push([language, key, text]);
      }
    } catch (error) {
      return;
    }
    if (!found.length) return;
    store.read();
    const known = new Map();
    for (const a of store.answers) {
      if (a.migrated_at) known.set(a.language + "\n" + a.question, a.correct);
    }
    const migratedAt = isoNow();
    const marks = [];
    for (const [language, , text] of found) {
      let last = null;
      try {
        const saved = JSON.parse(text);
        if (saved && saved.version === 1 && saved.last && typeof saved.last === "object") last = saved.last;
      } catch (error) {
        // Unreadable: nothing to keep (as the previous version would have read it).
      }
      if (!last) continue;
      for (const q of questions) {
        const result = last[q.id];
        if (!Object.prototype.hasOwnProperty.call(last, q.id) || (result !== 0 && result !== 1)) continue;
        if (known.get(language + "\n" + q.id) === (result === 1)) continue;
        marks.push({
          question: q.id, language: language, choice: result === 1 && q.kind === "single-choice" ? q.correct : null, correct: result === 1,
          answered_at: null, attempt: null, migrated_at: migratedAt,
        });
      }
    }
    const before = store.answers.findIndex((a) => !a.migrated_at);
    const at = before < 0 ? store.answers.length : before;
    store.answers.splice(at, 0, ...marks);
    if (marks.length && !store.write()) return;
    try {
      for (const [, key] of found) localStorage.removeItem(key);
    } catch (error) {
      // Left in place: migrated again, without duplicates, on the next load.
    }
  }

  // What this language's answers mean now: last result, all-time counts, Leitner box and due time.
  function progress() {
    const state = {};
    let right = 0;
    let count = 0;
    for (const a of store.answers) {
      if (a.language !== data.language || !byId.has(a.question)) continue;
      const time = Date.parse(a.answered_at || a.migrated_at);
      const s = state[a.question] || { box: 1, answers: 0 };
      s.last = a.correct ? 1 : 0;
      s.box = a.correct ? Math.min(s.box + 1, TOP_BOX) : 1;
      s.due = (isNaN(time) ? 0 : time) + INTERVAL_DAYS[s.box] * DAY;
      s.answers += 1;
      state[a.question] = s;
      count += 1;
      if (a.correct) right += 1;
    }
    return { state: state, right: right, count: count };
  }

  function dueIds(state) {
    const now = Date.now();
    return questions.filter((q) => state[q.id] && state[q.id].due <= now)
      .sort((a, b) => state[a.id].due - state[b.id].due)
      .map((q) => q.id);
  }

  store.read();
  migrateOldProgress();
  try {
    localStorage.setItem("aistack-bank/lang", data.lang);
  } catch (error) {
    // The site index then follows the browser's languages only.
  }

  // --- Views and browser history -----------------------------------------------------------

  const views = { topic: $("topic"), quiz: $("quiz"), results: $("results") };
  let session = null; // the run in progress (kept when the learner steps back to the topic)
  let finished = null; // the run whose results are on screen
  let ignorePop = 0;

  function show(name) {
    for (const [key, view] of Object.entries(views)) view.hidden = key !== name;
    window.scrollTo(0, 0);
  }

  function visible(name) {
    return !views[name].hidden;
  }

  // Leaving a view with our own buttons goes back in history too, so that the browser's
  // Back button and ours agree; the popstate that follows is already handled.
  function historyBack() {
    if (history.state && history.state.view) {
      ignorePop += 1;
      history.back();
    }
  }

  // The browser goes back after the click that asked for it has returned: a view entered
  // before then (a run started at once after Quit) gets its history entry once that Back is
  // done, or the Back would leave the new view's entry instead of the old one.
  let pushAfterBack = null;

  function pushView(state) {
    if (ignorePop) pushAfterBack = state;
    else history.pushState(state, "");
  }

  window.addEventListener("popstate", (event) => {
    if (ignorePop) {
      ignorePop -= 1;
      if (!ignorePop && pushAfterBack) {
        history.pushState(pushAfterBack, "");
        pushAfterBack = null;
      }
      return;
    }
    pushAfterBack = null;
    const state = event.state || {};
    if (state.view === "quiz" && session && session.id === state.attempt) {
      resume(false);
    } else if (state.view === "results" && finished && finished.id === state.attempt) {
      showResults();
    } else if (!visible("topic")) {
      showTopic(session ? $("resume") : null);
    }
  });

  // --- The topic view ----------------------------------------------------------------------

  function renderTopic() {
    const p = progress();
    const ids = Object.keys(p.state);
    const lastRight = ids.filter((id) => p.state[id].last === 1).length;

    function figure(id, right, count, detailKey) {
      if (count) {
        $(id).textContent = percent(right, count);
        $(id + "-detail").textContent = t(detailKey, { right: right, count: count });
      } else {
        $(id).replaceChildren(icon("—"), hidden(t("site.stats.accuracy.none")));
        $(id + "-detail").textContent = "";
      }
    }
    figure("stat-last", lastRight, ids.length, "site.stats.last.detail");
    figure("stat-alltime", p.right, p.count, "site.stats.alltime.detail");
    // Out of the questions whose answers are kept: a written answer (an essay) is never scored nor stored.
    $("stat-answered").textContent = t("site.stats.answered.value", { answered: ids.length, total: questions.filter((q) => !q.unscored).length });
    $("reset").hidden = ids.length === 0;
    $("export").hidden = store.answers.length === 0;

    const due = dueIds(p.state);
    const weak = $("practice-weak");
    weak.disabled = due.length === 0;
    $("practice-weak-count").hidden = due.length === 0;
    $("practice-weak-count").textContent = due.length ? t("site.weak.count", { count: due.length }) : "";
    $("weak-status").hidden = due.length > 0;
    $("weak-status").textContent = due.length ? "" : t("site.weak.none");

    const resume = $("resume");
    resume.hidden = !session;
    if (session) {
      resume.textContent = t("site.resume", { title: session.title, current: Math.min(session.index + 1, session.ids.length), total: session.ids.length });
    }

    renderTagBars($("tag-chart"), data.tags.map((tag) => {
      const tagged = questions.filter((q) => q.tags.includes(tag));
      return { tag: tag, right: tagged.filter((q) => p.state[q.id] && p.state[q.id].last === 1).length, count: tagged.length };
    }));

    const now = Date.now();
    for (const item of $("question-list").children) {
      const s = p.state[item.dataset.qid];
      let mark = item.querySelector(".q-status");
      if (!s) {
        if (mark) mark.remove();
        delete item.dataset.due;
        continue;
      }
      if (!mark) {
        mark = el("span");
        item.append(mark);
      }
      item.dataset.due = String(s.due);
      mark.className = "q-status " + (s.last ? "right" : "wrong");
      const labels = [t(s.last ? "site.questions.right" : "site.questions.wrong")];
      const parts = [icon(s.last ? "✓" : "✗")];
      if (s.due <= now) {
        labels.push(t("site.questions.due"));
        parts.push(el("span", "due-tag", t("site.questions.due")));
        parts[1].setAttribute("aria-hidden", "true");
      }
      parts.push(hidden(" (" + labels.join(", ") + ")"));
      mark.replaceChildren(...parts);
    }
  }

  function renderTagBars(list, rows) {
    list.replaceChildren(...rows.map((row) => {
      const item = el("li", "tag-row");
      item.dataset.tag = row.tag;
      const bar = el("span", "bar");
      bar.setAttribute("aria-hidden", "true");
      const fill = el("span", "fill");
      fill.style.setProperty("--share", String(row.count ? row.right / row.count : 0));
      bar.append(fill);
      item.append(el("span", "tag-name", row.tag), bar, el("span", "tag-score", t("site.tags.value", { right: row.right, count: row.count })));
      return item;
    }));
  }

  function showTopic(focusTarget) {
    renderTopic();
    show("topic");
    const target = focusTarget && !focusTarget.disabled && !focusTarget.hidden ? focusTarget : $("topic-title");
    target.focus();
  }

  // --- A practice run -------------------------------------------------------------------------

  function start(titleKey, ids, opener) {
    const order = shuffle(ids);
    session = {
      id: randomId(), titleKey: titleKey, title: t(titleKey), ids: order, index: 0, order: initialOrder(byId.get(order[0])),
      answered: false, results: [], opener: opener, startedAt: Date.now(),
    };
    finished = null;
    runStore.save();
    pushView({ view: "quiz", attempt: session.id });
    resume(false);
  }

  // --- The run in progress, kept in this tab (sessionStorage) so that a reload resumes it ---

  const RUN_TITLES = ["site.practice10.title", "site.practice_all.title", "site.weak.title", "site.retry.title", "site.weakest.title"];
  const OPENERS = ["practice-10", "practice-all", "practice-weak"];

  const runStore = {
    save() {
      if (!session) return;
      try {
        sessionStorage.setItem(data.runKey, JSON.stringify({
          version: 1, id: session.id, title: session.titleKey, ids: session.ids, index: session.index,
          order: session.order.map((option) => option.id),
          results: session.results.map((r) => (r.kind && r.kind !== "single-choice"
            ? { id: r.id, kind: r.kind, order: r.order.map((option) => option.id), response: r.response }
            : { id: r.id, order: r.order.map((option) => option.id), chosenAt: r.chosenAt })),
          opener: session.opener ? session.opener.id : null, startedAt: session.startedAt,
          ...(session.draft ? { draft: session.draft } : {}),
        }));
      } catch (error) {
        // Storage is blocked: the run lasts until the page closes, as before.
      }
    },
    clear() {
      try {
        sessionStorage.removeItem(data.runKey);
      } catch (error) {
        // Nothing kept, nothing to clear.
      }
    },
    // The kept run, or null when there is none or it no longer fits the questions of the page.
    read() {
      try {
        const saved = JSON.parse(sessionStorage.getItem(data.runKey) || "null");
        return saved ? restoreRun(saved) : null;
      } catch (error) {
        return null;
      }
    },
  };

  // The question's options in the order of ``ids``, or null unless ``ids`` are exactly its options.
  function optionsIn(q, ids) {
    if (!Array.isArray(ids) || ids.length !== q.options.length || new Set(ids).size !== ids.length) return null;
    const order = ids.map((id) => q.options.find((option) => option.id === id));
    return order.every(Boolean) ? order : null;
  }

  function restoreRun(saved) {
    const ids = saved.ids;
    if (saved.version !== 1 || typeof saved.id !== "string" || !RUN_TITLES.includes(saved.title) ||
      !Array.isArray(ids) || !ids.length || !ids.every((id) => byId.has(id)) || new Set(ids).size !== ids.length ||
      !Number.isInteger(saved.index) || saved.index < 0 || saved.index >= ids.length ||
      !Array.isArray(saved.results) || !Number.isFinite(saved.startedAt)) return null;
    const answered = saved.results.length === saved.index + 1;
    if (!answered && saved.results.length !== saved.index) return null;
    const results = [];
    for (const [i, r] of saved.results.entries()) {
      const q = byId.get(ids[i]);
      // A question whose kind changed since the answer was given: the run no longer fits.
      if (!r || r.id !== q.id || (r.kind || "single-choice") !== q.kind) return null;
      const order = orderIn(q, r.order);
      if (!order) return null;
      if (q.kind !== "single-choice") {
        if (!validResponse(q, r.response, order)) return null;
        results.push(resultOf(q, order, r.response));
        continue;
      }
      if (!Number.isInteger(r.chosenAt) || r.chosenAt < 0 || r.chosenAt >= order.length) return null;
      const right = order[r.chosenAt].id === q.correct;
      results.push({ id: q.id, order: order, chosenAt: r.chosenAt, score: right ? 1 : 0, right: right });
    }
    const order = answered ? results[saved.index].order : orderIn(byId.get(ids[saved.index]), saved.order);
    if (!order) return null;
    // The text being written in the question on screen (an essay), kept until it is submitted.
    const draft = saved.draft;
    const keptDraft = !answered && draft && draft.id === ids[saved.index] && typeof draft.text === "string" ? { id: draft.id, text: draft.text } : undefined;
    return {
      draft: keptDraft,
      id: saved.id, titleKey: saved.title, title: t(saved.title), ids: ids, index: saved.index, order: order,
      answered: answered, chosenAt: answered ? results[saved.index].chosenAt : undefined,
      response: answered ? results[saved.index].response : undefined, results: results,
      opener: OPENERS.includes(saved.opener) ? $(saved.opener) : null, startedAt: saved.startedAt,
    };
  }

  function resume(push) {
    if (!session) return;
    if (push) pushView({ view: "quiz", attempt: session.id });
    $("quiz-title").textContent = session.title;
    $("quiz-bar").max = session.ids.length;
    show("quiz");
    if (session.index >= session.ids.length) {
      finish();
    } else {
      showQuestion();
      if (session.answered) (current().kind === "single-choice" ? showAnswered : showChecked)();
    }
  }

  function current() {
    return byId.get(session.ids[session.index]);
  }

  function optionButtons() {
    return Array.from($("options").querySelectorAll(".option"));
  }

  function showQuestion() {
    const q = current();
    $("question").dataset.qid = q.id;
    $("quiz-count").textContent = t("site.quiz.progress", { current: session.index + 1, total: session.ids.length });
    $("quiz-bar").value = session.index;
    setText($("stem"), q.stem);
    $("verdict").replaceChildren();
    $("verdict").className = "verdict";
    $("feedback").hidden = true;
    $("feedback").replaceChildren();
    $("next").hidden = true;
    $("answer-bar").classList.remove("is-answered");
    if (q.kind !== "single-choice") {
      showResponseWidget(q);
      $("keys-hint").textContent = t(KEYS_HINTS[q.kind] || "site.quiz.keys.fields");
      $("keys-hint").hidden = false;
      window.scrollTo(0, 0);
      const first = $("response").querySelector("input, select, textarea, button");
      if (first) first.focus({ preventScroll: true });
      if (first && first.matches("textarea")) first.setSelectionRange(first.value.length, first.value.length); // go on writing
      return;
    }
    $("response").hidden = true;
    $("response").replaceChildren();
    $("options").hidden = false;
    $("options").replaceChildren(...session.order.map((option, position) => {
      const button = el("button", "option");
      button.type = "button";
      button.setAttribute("role", "radio");
      button.setAttribute("aria-checked", "false");
      button.tabIndex = position === 0 ? 0 : -1;
      button.dataset.option = option.id;
      button.append(el("span", "option-key", LETTERS[position]), el("span", "option-text", option.text));
      button.addEventListener("click", () => answer(position));
      return button;
    }));
    $("verdict").replaceChildren();
    $("verdict").className = "verdict";
    $("feedback").hidden = true;
    $("feedback").replaceChildren();
    $("next").hidden = true;
    $("answer-bar").classList.remove("is-answered");
    const count = session.order.length;
    $("keys-hint").textContent = t("site.quiz.keys", { count: count, letter: LETTERS[count - 1] });
    $("keys-hint").hidden = false;
    window.scrollTo(0, 0);
    optionButtons()[0].focus({ preventScroll: true });
  }

  function optionLine(labelKey, position, option) {
    const block = el("div", "answer-line");
    const line = el("p");
    // The option's text in a <bdi>: of either direction, it cannot pull the letter or the label along.
    line.append(el("span", "label", t(labelKey)), " " + LETTERS[position] + ". ", el("bdi", "", option.text));
    block.append(line);
    if (option.feedback) block.append(el("p", "option-feedback", option.feedback));
    return block;
  }

  // The feedback of one answer: what was picked, the right option if it was not, the
  // explanation, and (folded) why each other option is wrong. Used in the quiz and the review.
  function feedbackParts(q, order, chosenAt) {
    const correctAt = order.findIndex((option) => option.id === q.correct);
    const parts = [optionLine("site.feedback.your_answer", chosenAt, order[chosenAt])];
    if (chosenAt !== correctAt) parts.push(optionLine("site.feedback.correct_answer", correctAt, order[correctAt]));
    if (q.explanation) parts.push(el("h3", null, t("site.feedback.explanation")), el("p", "explanation", q.explanation));
    const others = order.map((option, position) => [option, position])
      .filter(([option, position]) => position !== chosenAt && position !== correctAt && option.feedback);
    if (others.length) {
      const details = el("details", "other-options");
      details.append(el("summary", null, t("site.feedback.others")));
      const list = el("ul");
      for (const [option, position] of others) {
        const item = el("li");
        const line = el("p");
        line.append(el("span", "label", LETTERS[position] + ". "), option.text);
        item.append(line, el("p", "option-feedback", option.feedback));
        list.append(item);
      }
      details.append(list);
      parts.push(details);
    }
    return parts;
  }

  function answer(position) {
    if (!session || session.answered || position < 0 || position >= session.order.length) return;
    const q = current();
    if (q.kind !== "single-choice") return;
    const chosen = session.order[position];
    const right = chosen.id === q.correct;
    session.answered = true;
    session.chosenAt = position;
    session.results.push({ id: q.id, order: session.order, chosenAt: position, score: right ? 1 : 0, right: right });
    runStore.save();
    store.add({ question: q.id, language: data.language, choice: chosen.id, correct: right, answered_at: isoNow(), attempt: session.id, kind: q.kind, score: right ? 1 : 0 });
    showAnswered();
  }

  function showAnswered() {
    const q = current();
    const position = session.chosenAt;
    const correctAt = session.order.findIndex((option) => option.id === q.correct);
    const right = position === correctAt;
    $("quiz-bar").value = session.index + 1;
    $("keys-hint").hidden = true;
    $("answer-bar").classList.add("is-answered");

    const buttons = optionButtons();
    buttons.forEach((button, index) => {
      button.setAttribute("aria-disabled", "true");
      button.setAttribute("aria-checked", String(index === position));
      button.tabIndex = index === position ? 0 : -1;
      if (index === correctAt || index === position) {
        const isCorrect = index === correctAt;
        const mark = el("span", "option-mark");
        mark.append(icon(isCorrect ? "✓" : "✗"), hidden(" (" + t(isCorrect ? "site.option.correct" : "site.option.yours") + ")"));
        button.classList.add(isCorrect ? "is-correct" : "is-wrong");
        if (!button.querySelector(".option-mark")) button.append(mark);
      }
    });

    const verdict = $("verdict");
    verdict.className = "verdict " + (right ? "is-right" : "is-wrong");
    verdict.replaceChildren(icon(right ? "✓ " : "✗ "), t(right ? "site.feedback.right" : "site.feedback.wrong"));
    const feedback = $("feedback");
    feedback.className = "feedback " + (right ? "is-right" : "is-wrong");
    feedback.replaceChildren(...feedbackParts(q, session.order, position));
    feedback.hidden = false;

    const next = $("next");
    next.textContent = t(session.index + 1 < session.ids.length ? "site.quiz.next" : "site.quiz.finish");
    next.hidden = false;
    next.focus({ preventScroll: true });

    // Bring the feedback up, but never so far that the chosen option leaves the screen.
    const chosenTop = buttons[position].getBoundingClientRect().top;
    const feedbackTop = feedback.getBoundingClientRect().top;
    const wanted = feedbackTop - window.innerHeight * 0.55;
    const scroll = Math.min(wanted, chosenTop - 12);
    if (scroll > 0) window.scrollBy(0, scroll);
  }

  function next() {
    if (!session || !session.answered) return;
    session.index += 1;
    session.answered = false;
    if (session.index < session.ids.length) {
      session.order = initialOrder(current());
      session.response = undefined;
      session.draft = undefined;
      runStore.save();
      showQuestion();
    } else {
      finish();
    }
  }

  function finish() {
    const done = session;
    session = null;
    runStore.clear();
    done.elapsed = Date.now() - done.startedAt;
    finished = done;
    history.replaceState({ view: "results", attempt: done.id }, "");
    renderResults(done);
    showResults();
    const scored = done.results.filter((r) => !r.unscored);
    $("announcer").textContent = t("site.result.score", { score: marks(scored), total: scored.length });
  }

  function showResults() {
    show("results");
    $("results-title").focus();
  }

  // The marks a run earned: one per right answer, a share of one for a partly right one
  // (a whole number as it is, a fraction written in the page's language).
  function marks(results) {
    const sum = results.reduce((total, r) => total + (typeof r.score === "number" ? r.score : r.right ? 1 : 0), 0);
    const rounded = Math.round(sum * 100) / 100;
    return Number.isInteger(rounded) ? rounded : formatNumber(rounded);
  }

  function tagRows(results) {
    const rows = new Map();
    for (const r of results) {
      for (const tag of byId.get(r.id).tags) {
        const row = rows.get(tag) || { tag: tag, right: 0, count: 0 };
        row.count += 1;
        if (r.right) row.right += 1;
        rows.set(tag, row);
      }
    }
    return data.tags.filter((tag) => rows.has(tag)).map((tag) => rows.get(tag));
  }

  function weakestTags(results) {
    return tagRows(results).filter((row) => row.right < row.count)
      .sort((a, b) => a.right / a.count - b.right / b.count || b.count - a.count)
      .slice(0, 3)
      .map((row) => row.tag);
  }

  function renderResults(done) {
    // A written answer (an essay) is never scored: it is in the review, not in the score or the tags.
    const scored = done.results.filter((r) => !r.unscored);
    const total = scored.length;
    const right = scored.filter((r) => r.right).length;
    const earned = scored.reduce((sum, r) => sum + (typeof r.score === "number" ? r.score : r.right ? 1 : 0), 0);
    const share = total ? earned / total : 0;
    $("results-ring").style.setProperty("--share", String(share));
    $("results-percent").textContent = total ? percent(earned, total) : "—";
    $("results-score").textContent = t("site.result.score", { score: marks(scored), total: total });
    const seconds = Math.max(0, Math.round(done.elapsed / 1000));
    $("results-time").textContent = t("site.result.time", { minutes: Math.floor(seconds / 60), seconds: seconds % 60 });
    const unscored = done.results.length - total;
    let note = $("results-unscored");
    if (!note && unscored) {
      note = el("p", "time");
      note.id = "results-unscored";
      $("results-time").after(note);
    }
    if (note) {
      note.hidden = !unscored;
      note.textContent = unscored ? t("site.essay.results", { count: unscored }) : "";
    }
    $("results-perfect").hidden = right < total || total === 0;
    renderTagBars($("results-tags"), tagRows(scored));

    $("results-review").replaceChildren(...done.results.map((r) => {
      const q = byId.get(r.id);
      const state = r.unscored ? "is-unscored" : verdictKey(r.score);
      const item = el("li", "review-item " + (r.unscored ? "is-unscored" : r.right ? "is-right" : "is-wrong"));
      item.dataset.qid = r.id;
      const details = el("details");
      details.open = !r.right;
      const summary = el("summary");
      const partly = state === "is-partial";
      const said = r.unscored ? t("site.essay.unscored") : partly ? t("site.feedback.partial", { percent: percent(r.score, 1) })
        : t(r.right ? "site.feedback.right" : "site.feedback.wrong");
      summary.append(icon(r.unscored ? "✎" : r.right ? "✓" : partly ? "◐" : "✗"), hidden(said + " "), el("bdi", "review-stem", q.stem));
      const body = el("div", "feedback " + state);
      body.append(...(q.kind === "single-choice" ? feedbackParts(q, r.order, r.chosenAt) : kindFeedback(q, r.order, r.response)));
      details.append(summary, body);
      item.append(details);
      return item;
    }));

    const weakest = weakestTags(scored);
    $("practice-weakest").hidden = weakest.length === 0;
    $("practice-weakest").textContent = t("site.result.weakest", { tags: weakest.join(", ") });
    $("practice-weakest").dataset.tags = weakest.join(" ");
    const missed = scored.filter((r) => !r.right).map((r) => r.id);
    $("retry-missed").hidden = missed.length === 0;
    $("retry-missed").textContent = t("site.result.retry", { count: missed.length });
  }

  function leave() {
    const opener = (session && session.opener) || (finished && finished.opener);
    session = null;
    finished = null;
    runStore.clear();
    $("announcer").textContent = "";
    historyBack();
    showTopic(opener);
  }

  // --- Export: every answer of this browser as a JSON file, made here and saved locally ---

  function exportAnswers() {
    store.read();
    const payload = {
      format: "aistack-bank-practice-answers",
      version: 1,
      bank: data.topic,
      exported_at: isoNow(),
      learner: learnerId(),
      answers: store.answers.map((a) => {
        const out = {
          question: a.question, language: a.language, choice: a.choice, correct: a.correct,
          answered_at: a.answered_at, attempt: a.attempt,
        };
        if (typeof a.kind === "string") out.kind = a.kind;
        if (typeof a.score === "number") out.score = a.score;
        if (a.migrated_at) out.migrated = true;
        return out;
      }),
    };
    const file = data.topic + "-answers-" + payload.exported_at.slice(0, 10) + ".json";
    const url = URL.createObjectURL(new Blob([JSON.stringify(payload, null, 2) + "\n"], { type: "application/json" }));
    const link = el("a");
    link.href = url;
    link.download = file;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
    $("progress-status").textContent = t("site.export.done", { file: file });
  }

  // --- Every other question kind: its scoring, its answer widget and its feedback ---------
  //
  // Scoring follows the bank's shared semantics (docs/json-contract.md): one function per kind,
  // each taking the question and the learner's response and returning at least {score} (0–1).

  // The decimal separator of the page's language ("," in French and Dutch); "." is always read too.
  const DECIMAL = (() => {
    try {
      const part = new Intl.NumberFormat(data.lang).formatToParts(1.5).find((p) => p.type === "decimal");
      return part ? part.value : ".";
    } catch (error) {
      return ".";
    }
  })();

  function formatNumber(value) {
    try {
      return new Intl.NumberFormat(data.lang, { maximumFractionDigits: 10, useGrouping: false }).format(value);
    } catch (error) {
      return String(value);
    }
  }

  // Arabic-Indic and Persian digits (which an Arabic or Persian page may show and a learner
  // may type) as 0–9.
  function westernDigits(text) {
    return text.replace(/[\u0660-\u0669\u06f0-\u06f9]/g, (d) => String((d.charCodeAt(0) & 0xf)));
  }

  // A number as the learner of this page writes it ("3,5" or "3.5" on a French page; only "3.5"
  // on an English one, where "3,500" means three thousand five hundred), or null.
  function parseNumber(text) {
    let s = westernDigits(String(text)).trim().replace(/\u2212/g, "-");
    s = s.replace(/(\d)[ \u00a0\u202f](?=\d{3}(?:\D|$))/g, "$1"); // 1 000 000 (spaces between groups)
    const separators = DECIMAL === "." ? "\\." : "\\." + DECIMAL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = new RegExp("^[+-]?(?:\\d+(?:[" + separators + "]\\d*)?|[" + separators + "]\\d+)(?:[eE][+-]?\\d+)?$");
    if (!pattern.test(s)) return null;
    const value = Number(s.replace(DECIMAL, "."));
    return Number.isFinite(value) ? value : null;
  }

  // What the learner typed in a numerical question's field (a number, perhaps followed by a
  // unit) and the unit chosen in its list: {response: {value, unit}} or {error, unit}.
  function readNumerical(q, text, chosenUnit) {
    const found = westernDigits(String(text)).trim().match(/^([+\-\u2212]?(?:[\d.,\u066b\s\u00a0\u202f]*\d|[.,\u066b]\d+)(?:[eE][+\-]?\d+)?)\s*(.*)$/);
    if (!found) return { error: "number" };
    const value = parseNumber(found[1]);
    if (value === null) return { error: "number" };
    let unit = q.units.length ? Math.max(0, Number(chosenUnit) || 0) : 0;
    const typed = found[2].trim();
    if (typed) {
      if (!q.units.length) return { error: "number" };
      let at = q.units.findIndex((u) => u.name === typed);
      if (at < 0) {
        const lower = q.units.map((u) => u.name.toLocaleLowerCase(data.lang));
        const matches = lower.filter((name) => name === typed.toLocaleLowerCase(data.lang));
        if (matches.length === 1) at = lower.indexOf(matches[0]);
      }
      if (at < 0) return { error: "unit", unit: typed };
      unit = at;
    }
    if (unit >= q.units.length && q.units.length) return { error: "number" };
    return { response: { value: value, unit: unit } };
  }

  function within(value, target, tolerance) {
    return Math.abs(value - target) <= tolerance + 1e-9 * Math.max(1, Math.abs(target));
  }

  // --- Short-answer matching (begin) ---
  // The bank's folding rule, as aistack_bank/kinds/short_answer.py defines it (`fold`,
  // `answer_pattern`); tests/data/short-answer-folding.json runs the same cases through both.
  const APOSTROPHES = /['\u2018\u2019\u201b\u02bc\u02b9\u2032\u00b4\u0060\uff07]/g;
  const QUOTES = /["\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb\uff02]/g;
  const DASHES = /[-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d]/g;
  const WORD_HYPHEN = /(?<=[\p{L}\p{N}])-(?=[\p{L}\p{N}])/gu;
  const WILDCARD = "\ue000";

  // A typed text as it is compared: NFC; apostrophes as ', double quotes as ", dashes as -, a
  // hyphen between letters or digits as a space; whitespace runs as one space, ends stripped;
  // diacritics dropped if the question folds them; case folded unless case-sensitive.
  function foldTyped(text, caseSensitive, foldDiacritics) {
    let s = String(text).normalize("NFC").replace(APOSTROPHES, "'").replace(QUOTES, '"').replace(DASHES, "-");
    s = s.replace(WORD_HYPHEN, " ").split(/\s+/).filter(Boolean).join(" ");
    if (foldDiacritics) s = s.normalize("NFD").replace(/\p{Mn}/gu, "").normalize("NFC");
    return caseSensitive ? s : s.toUpperCase().toLowerCase();
  }

  // Whether a typed response matches an accepted answer: Moodle's wildcard, a run of unescaped
  // `*` matches any run of characters, `\*` is a star; everything else as folded.
  function answerMatches(text, response, caseSensitive, foldDiacritics) {
    const marked = String(text).replace(/(?<!\\)\*+/g, WILDCARD).replace(/\\\*/g, "*");
    const pieces = foldTyped(marked, caseSensitive, foldDiacritics).split(WILDCARD);
    const source = pieces.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
    return new RegExp("^(?:" + source + ")$", "su").test(foldTyped(response, caseSensitive, foldDiacritics));
  }
  // --- Short-answer matching (end) ---

  // The answers a matching question offers, each text once (two prompts may share an answer).
  function matchChoices(q) {
    const seen = new Set();
    const out = [];
    for (const item of q.pairs.map((p) => ({ id: p.id, text: p.answer })).concat(q.distractors)) {
      if (seen.has(item.text)) continue;
      seen.add(item.text);
      out.push({ id: item.id, text: item.text });
    }
    return out;
  }

  function matchText(q, id) {
    const pair = q.pairs.find((p) => p.id === id);
    if (pair) return pair.answer;
    const distractor = q.distractors.find((d) => d.id === id);
    return distractor ? distractor.text : null;
  }

  const SCORERS = {
    // response: the chosen option's id.
    "single-choice": (q, response) => ({ score: response === q.correct ? 1 : 0 }),
    // response: the ids of the ticked options. Partial: k right options, each right pick +1/k,
    // each wrong pick −1/k, floored at 0; all-or-nothing: 1 only for exactly the right set.
    "multiple-response": (q, response) => {
      const picked = new Set(response);
      const k = q.correct.length;
      const right = q.correct.filter((id) => picked.has(id)).length;
      const wrong = Array.from(picked).filter((id) => !q.correct.includes(id)).length;
      if (q.scoring === "all-or-nothing") return { score: right === k && wrong === 0 ? 1 : 0 };
      return { score: Math.max(0, (right - wrong) / k) };
    },
    // response: true or false.
    "true-false": (q, response) => ({ score: response === q.answer ? 1 : 0 }),
    // response: {value, unit}: the value converted by its unit's multiplier; a near miss gives
    // its credit (and feedback) inside its own range.
    "numerical": (q, response) => {
      const value = q.units.length ? response.value * q.units[response.unit].multiplier : response.value;
      if (within(value, q.answer, q.tolerance)) return { score: 1, miss: -1 };
      const miss = q.nearMisses.findIndex((m) => within(value, m.value, m.tolerance));
      return { score: miss >= 0 ? q.nearMisses[miss].credit : 0, miss: miss };
    },
    // response: the typed text; the accepted answer with the most credit among those it matches.
    "short-answer": (q, response) => {
      let best = -1;
      q.answers.forEach((a, i) => {
        if (answerMatches(a.text, response, q.caseSensitive, q.foldDiacritics) && (best < 0 || a.credit > q.answers[best].credit)) best = i;
      });
      return { score: best >= 0 ? q.answers[best].credit : 0, answer: best };
    },
    // response: {pair id: chosen answer id}; score = right matches / pairs.
    "matching": (q, response) => {
      const right = q.pairs.map((p) => matchText(q, response[p.id]) === p.answer);
      return { score: right.filter(Boolean).length / q.pairs.length, right: right };
    },
    // response: the items' ids in the learner's order; all or nothing.
    "ordering": (q, response) => {
      const right = q.items.map((item, i) => response[i] === item.id);
      return { score: right.every(Boolean) ? 1 : 0, right: right };
    },
  };

  // A question of a kind a person grades (an essay: the page data marks it "unscored") is never
  // scored here, nor stored, nor in any score.
  function outcomeOf(q, response) {
    return q.unscored ? { score: 0, unscored: true } : SCORERS[q.kind](q, response);
  }

  // A run's record of an answer to a question of any kind but single-choice.
  function resultOf(q, order, response) {
    const outcome = outcomeOf(q, response);
    const result = { id: q.id, kind: q.kind, order: order, response: response, score: outcome.score, right: outcome.score >= 1 && !outcome.unscored };
    if (outcome.unscored) result.unscored = true;
    return result;
  }

  // A response kept in this tab's run, checked against the question as it is now.
  function validResponse(q, response, order) {
    switch (q.kind) {
      case "multiple-response":
        return Array.isArray(response) && response.every((id) => q.options.some((o) => o.id === id)) && new Set(response).size === response.length;
      case "true-false":
        return typeof response === "boolean";
      case "numerical":
        return !!response && Number.isFinite(response.value) && Number.isInteger(response.unit) && response.unit >= 0 &&
          response.unit < Math.max(1, q.units.length);
      case "short-answer":
        return typeof response === "string";
      case "matching":
        return !!response && typeof response === "object" && q.pairs.every((p) => order.some((c) => c.id === response[p.id]));
      case "ordering":
        return !!orderIn(q, response);
      case "essay":
        return typeof response === "string";
      default:
        return false;
    }
  }

  // The "choice" of a stored answer: one string for every kind.
  function encodeResponse(q, response) {
    switch (q.kind) {
      case "multiple-response":
        return response.slice().sort().join(",");
      case "true-false":
        return String(response);
      case "numerical":
        return String(response.value) + (q.units.length ? " " + q.units[response.unit].name : "");
      case "matching":
        return q.pairs.map((p) => p.id + "=" + (response[p.id] || "")).join(";");
      case "ordering":
        return response.join(",");
      default:
        return String(response);
    }
  }

  // What a run shows of a question in a shuffled order: options, or a matching question's answers.
  function initialOrder(q) {
    if (q.kind === "single-choice" || q.kind === "multiple-response") return shuffle(q.options);
    if (q.kind === "matching") return shuffle(matchChoices(q));
    if (q.kind === "ordering") {
      // Never the right order to start from (three items or more always have another).
      let order = shuffle(q.items);
      while (order.every((item, i) => item.id === q.items[i].id)) order = shuffle(q.items);
      return order;
    }
    return [];
  }

  // ``ids`` as the question's shown order, or null unless they are exactly what it shows.
  function orderIn(q, ids) {
    if (q.kind === "single-choice" || q.kind === "multiple-response") return optionsIn(q, ids);
    if (q.kind === "matching") {
      const choices = matchChoices(q);
      if (!Array.isArray(ids) || ids.length !== choices.length || new Set(ids).size !== ids.length) return null;
      const order = ids.map((id) => choices.find((c) => c.id === id));
      return order.every(Boolean) ? order : null;
    }
    if (q.kind === "ordering") {
      if (!Array.isArray(ids) || ids.length !== q.items.length || new Set(ids).size !== ids.length) return null;
      const order = ids.map((id) => q.items.find((item) => item.id === id));
      return order.every(Boolean) ? order : null;
    }
    return Array.isArray(ids) && ids.length === 0 ? [] : null;
  }

  function field(tag, id, className) {
    const node = el(tag, className || "field");
    node.id = id;
    return node;
  }

  function labelFor(id, text, className) {
    const label = el("label", className || "field-label", text);
    label.htmlFor = id;
    return label;
  }

  function hint(text) {
    const node = el("p", "response-hint", text);
    node.id = "response-hint";
    return node;
  }

  function choiceLabel(type, name, value, position, text, withKey) {
    const label = el("label", "option choice");
    const input = el("input");
    input.type = type;
    input.name = name;
    input.value = value;
    input.id = "choice-" + position;
    label.append(input);
    if (withKey) label.append(el("span", "option-key", LETTERS[position]));
    label.append(el("span", "option-text", text));
    return label;
  }

  const WIDGETS = {
    "multiple-response": (q) => {
      const group = el("div", "choices");
      group.setAttribute("role", "group");
      group.setAttribute("aria-labelledby", "stem");
      group.setAttribute("aria-describedby", "response-hint");
      session.order.forEach((option, position) => {
        const label = choiceLabel("checkbox", "choice", String(position), position, option.text, true);
        label.dataset.option = option.id;
        group.append(label);
      });
      return [hint(t("site.mr.hint")), group];
    },
    "true-false": () => {
      const group = el("div", "choices");
      group.setAttribute("role", "radiogroup");
      group.setAttribute("aria-labelledby", "stem");
      group.append(
        choiceLabel("radio", "truth", "true", 0, t("site.tf.true"), false),
        choiceLabel("radio", "truth", "false", 1, t("site.tf.false"), false));
      group.children[0].dataset.option = "true";
      group.children[1].dataset.option = "false";
      return [group];
    },
    "numerical": (q) => {
      const input = field("input", "answer-input");
      input.type = "text";
      input.inputMode = "decimal";
      input.autocomplete = "off";
      input.spellcheck = false;
      input.setAttribute("aria-describedby", "response-hint response-error");
      const row = el("div", "field-row");
      const number = el("div", "field-group");
      number.append(labelFor("answer-input", t("site.num.label")), input);
      row.append(number);
      if (q.units.length) {
        const select = field("select", "answer-unit");
        q.units.forEach((unit, i) => {
          const option = el("option", null, unit.name);
          option.value = String(i);
          select.append(option);
        });
        const unit = el("div", "field-group");
        unit.append(labelFor("answer-unit", t("site.num.unit")), select);
        row.append(unit);
      }
      const example = formatNumber(3.5);
      return [row, hint(t(q.units.length ? "site.num.hint_units" : "site.num.hint", { example: example }))];
    },
    "short-answer": (q) => {
      const input = field("input", "answer-input");
      input.type = "text";
      input.autocomplete = "off";
      input.spellcheck = false;
      input.setAttribute("autocapitalize", "off");
      input.setAttribute("aria-describedby", (q.caseSensitive ? "response-hint " : "") + "response-error");
      const group = el("div", "field-group");
      group.append(labelFor("answer-input", t("site.short.label")), input);
      return q.caseSensitive ? [group, hint(t("site.short.case"))] : [group];
    },
    "matching": (q) => {
      const list = el("div", "match-list");
      list.setAttribute("role", "group");
      list.setAttribute("aria-labelledby", "stem");
      list.setAttribute("aria-describedby", "response-hint");
      q.pairs.forEach((pair, i) => {
        const row = el("div", "match-row");
        row.dataset.pair = pair.id;
        const select = field("select", "match-" + i);
        select.dataset.pair = pair.id;
        const blank = el("option", null, t("site.match.choose"));
        blank.value = "";
        select.append(blank);
        session.order.forEach((choice, position) => {
          const option = el("option", null, choice.text);
          option.value = String(position);
          select.append(option);
        });
        const label = labelFor("match-" + i, "", "match-prompt");
        label.append(el("bdi", null, pair.prompt));
        row.append(label, select);
        list.append(row);
      });
      return [hint(t("site.match.hint")), list];
    },
    // A text box, labelled, starting from the response template; Enter writes a new line.
    "essay": (q) => {
      const box = field("textarea", "answer-input");
      box.rows = 8;
      box.value = session.draft && session.draft.id === q.id ? session.draft.text : q.responseTemplate || "";
      box.setAttribute("aria-describedby", "response-hint response-error");
      const group = el("div", "field-group");
      group.append(labelFor("answer-input", t("site.essay.label")), box);
      return [hint(t("site.essay.hint")), group];
    },
    // The items in a list, each with buttons moving it up and down (Tab to a button, Enter or
    // Space to move); the moved item keeps the focus and a live region says where it went.
    "ordering": () => {
      const list = el("ol", "match-list order-list");
      list.id = "order-list";
      list.setAttribute("aria-labelledby", "stem");
      list.setAttribute("aria-describedby", "response-hint");
      session.order.forEach((item) => list.append(orderRow(item)));
      const status = el("p", "visually-hidden");
      status.id = "order-status";
      status.setAttribute("role", "status");
      return [hint(t("site.ordering.hint")), list, status];
    },
  };

  function orderRow(item) {
    const row = el("li", "match-row order-row");
    row.dataset.item = item.id;
    const buttons = el("span", "order-buttons");
    for (const [step, key, symbol, name] of [[-1, "site.ordering.up", "↑", "up"], [1, "site.ordering.down", "↓", "down"]]) {
      const button = el("button", "button secondary order-move");
      button.type = "button";
      button.id = "order-" + name + "-" + item.id;
      button.dataset.step = String(step);
      button.setAttribute("aria-label", t(key, { item: item.text }));
      button.append(icon(symbol));
      button.addEventListener("click", () => moveItem(row, step, button));
      buttons.append(button);
    }
    row.append(el("bdi", "match-prompt", item.text), buttons);
    return row;
  }

  function moveItem(row, step, button) {
    if (session.answered) return;
    const list = row.parentNode;
    const rows = Array.from(list.children);
    const at = rows.indexOf(row);
    const to = at + step;
    if (to < 0 || to >= rows.length) return;
    if (step < 0) list.insertBefore(row, rows[to]);
    else list.insertBefore(row, rows[to].nextSibling);
    button.focus();
    const item = current().items.find((i) => i.id === row.dataset.item);
    $("order-status").textContent = t("site.ordering.moved", { item: item.text, position: to + 1, count: rows.length });
  }

  // The learner's response from the widget: {response} or {error: message, field: element to focus}.
  const READERS = {
    "multiple-response": () => {
      const boxes = Array.from($("response").querySelectorAll("input[type=checkbox]"));
      const picked = boxes.filter((box) => box.checked).map((box) => session.order[Number(box.value)].id);
      return picked.length ? { response: picked } : { error: t("site.mr.empty"), field: boxes[0] };
    },
    "true-false": () => {
      const radios = Array.from($("response").querySelectorAll("input[type=radio]"));
      const chosen = radios.find((radio) => radio.checked);
      return chosen ? { response: chosen.value === "true" } : { error: t("site.tf.empty"), field: radios[0] };
    },
    "numerical": (q) => {
      const input = $("answer-input");
      const read = readNumerical(q, input.value, $("answer-unit") ? $("answer-unit").value : 0);
      if (read.error === "unit") return { error: t("site.num.unit_unknown", { unit: read.unit }), field: input };
      if (read.error) return { error: t("site.num.invalid", { example: formatNumber(3.5) }), field: input };
      return read;
    },
    "short-answer": () => {
      const input = $("answer-input");
      return input.value.trim() ? { response: input.value.trim() } : { error: t("site.short.empty"), field: input };
    },
    "matching": (q) => {
      const selects = Array.from($("response").querySelectorAll("select"));
      const blank = selects.find((select) => select.value === "");
      if (blank) return { error: t("site.match.empty"), field: blank };
      const response = {};
      for (const select of selects) response[select.dataset.pair] = session.order[Number(select.value)].id;
      return { response: response };
    },
    "ordering": () => ({ response: Array.from($("order-list").children).map((row) => row.dataset.item) }),
    // The text as written (its trailing spaces dropped); nothing written, or the template left as it was, is refused.
    "essay": (q) => {
      const box = $("answer-input");
      const text = box.value.replace(/\s+$/, "");
      return text.trim() && text.trim() !== (q.responseTemplate || "").trim() ? { response: text } : { error: t("site.essay.empty"), field: box };
    },
  };

  // The keyboard hint and the label of the button under the answer, where a kind has its own.
  const KEYS_HINTS = { "essay": "site.essay.keys" };
  const CHECK_LABELS = { "essay": "site.essay.submit" };

  function showResponseWidget(q) {
    const area = $("response");
    const error = el("p", "response-error");
    error.id = "response-error";
    error.setAttribute("role", "alert");
    const check = el("button", "button check", t(CHECK_LABELS[q.kind] || "site.kind.check"));
    check.type = "button";
    check.id = "check";
    check.addEventListener("click", checkAnswer);
    const actions = el("div", "response-actions");
    actions.append(check);
    area.replaceChildren(...WIDGETS[q.kind](q), error, actions);
    area.hidden = false;
    $("options").hidden = true;
    $("options").replaceChildren();
  }

  function checkAnswer() {
    if (!session || session.answered) return;
    const q = current();
    if (q.kind === "single-choice") return;
    const read = READERS[q.kind](q);
    if (read.error) {
      $("response-error").textContent = read.error;
      if (read.field) {
        read.field.setAttribute("aria-invalid", "true");
        read.field.focus();
      }
      return;
    }
    const result = resultOf(q, session.order, read.response);
    session.answered = true;
    session.response = read.response;
    session.draft = undefined;
    session.results.push(result);
    runStore.save();
    // The history holds scored answers (accuracy, review, the analysis of exported answers);
    // a written answer stays in this run only.
    if (!result.unscored) {
      store.add({
        question: q.id, language: data.language, choice: encodeResponse(q, read.response), correct: result.right,
        answered_at: isoNow(), attempt: session.id, kind: q.kind, score: result.score,
      });
    }
    showChecked();
  }

  function mark(node, isCorrect, key) {
    if (node.querySelector(".option-mark")) return;
    const span = el("span", "option-mark");
    span.append(icon(isCorrect ? "✓" : "✗"), hidden(" (" + t(key) + ")"));
    node.append(span);
  }

  // Puts a response back into the widget (a resumed run) and marks what was right.
  const MARKERS = {
    "multiple-response": (q, response) => {
      for (const label of $("response").querySelectorAll(".choice")) {
        const id = label.dataset.option;
        const box = label.querySelector("input");
        box.checked = response.includes(id);
        const isCorrect = q.correct.includes(id);
        if (isCorrect) {
          label.classList.add(box.checked ? "is-correct" : "is-missed");
          mark(label, true, "site.option.correct");
        } else if (box.checked) {
          label.classList.add("is-wrong");
          mark(label, false, "site.option.yours");
        }
      }
    },
    "true-false": (q, response) => {
      for (const label of $("response").querySelectorAll(".choice")) {
        const value = label.dataset.option === "true";
        label.querySelector("input").checked = value === response;
        if (value === q.answer) {
          label.classList.add("is-correct");
          mark(label, true, "site.option.correct");
        } else if (value === response) {
          label.classList.add("is-wrong");
          mark(label, false, "site.option.yours");
        }
      }
    },
    "numerical": (q, response, outcome) => {
      const input = $("answer-input");
      if (!input.value) input.value = formatNumber(response.value);
      if ($("answer-unit")) $("answer-unit").value = String(response.unit);
      input.classList.add(outcome.score >= 1 ? "is-right" : "is-wrong");
    },
    "short-answer": (q, response, outcome) => {
      const input = $("answer-input");
      if (!input.value) input.value = response;
      input.classList.add(outcome.score >= 1 ? "is-right" : "is-wrong");
    },
    "matching": (q, response, outcome) => {
      q.pairs.forEach((pair, i) => {
        const select = $("match-" + i);
        select.value = String(session.order.findIndex((c) => c.id === response[pair.id]));
        const row = select.closest(".match-row");
        row.classList.add(outcome.right[i] ? "is-correct" : "is-wrong");
        mark(row, outcome.right[i], outcome.right[i] ? "site.option.correct" : "site.option.yours");
      });
    },
    // The text as it was submitted (after a reload the box would start from the template).
    "essay": (q, response) => {
      $("answer-input").value = response;
    },
    "ordering": (q, response, outcome) => {
      const list = $("order-list");
      const rows = Array.from(list.children);
      response.forEach((id, i) => {
        const row = rows.find((r) => r.dataset.item === id);
        list.append(row);
        row.classList.add(outcome.right[i] ? "is-correct" : "is-wrong");
        mark(row, outcome.right[i], outcome.right[i] ? "site.option.correct" : "site.option.yours");
      });
      for (const button of list.querySelectorAll("button")) button.disabled = true;
    },
  };

  function verdictKey(score) {
    return score >= 1 ? "is-right" : score > 0 ? "is-partial" : "is-wrong";
  }

  function showChecked() {
    const q = current();
    const outcome = outcomeOf(q, session.response);
    $("quiz-bar").value = session.index + 1;
    $("keys-hint").hidden = true;
    $("answer-bar").classList.add("is-answered");
    $("response-error").textContent = "";
    MARKERS[q.kind](q, session.response, outcome);
    for (const input of $("response").querySelectorAll("input, select, textarea")) {
      input.disabled = true;
      input.removeAttribute("aria-invalid");
    }
    $("check").hidden = true;
    const state = outcome.unscored ? "is-unscored" : verdictKey(outcome.score);
    const verdict = $("verdict");
    verdict.className = "verdict " + state;
    if (state === "is-unscored") {
      verdict.replaceChildren(icon("✎ "), t("site.essay.unscored"));
    } else if (state === "is-partial") {
      verdict.replaceChildren(icon("◐ "), t("site.feedback.partial", { percent: percent(outcome.score, 1) }));
    } else {
      verdict.replaceChildren(icon(state === "is-right" ? "✓ " : "✗ "), t(state === "is-right" ? "site.feedback.right" : "site.feedback.wrong"));
    }
    const feedback = $("feedback");
    feedback.className = "feedback " + state;
    feedback.replaceChildren(...kindFeedback(q, session.order, session.response));
    feedback.hidden = false;
    const next = $("next");
    next.textContent = t(session.index + 1 < session.ids.length ? "site.quiz.next" : "site.quiz.finish");
    next.hidden = false;
    next.focus({ preventScroll: true });
    const top = $("response").getBoundingClientRect().top;
    const scroll = Math.min(feedback.getBoundingClientRect().top - window.innerHeight * 0.55, top - 12);
    if (scroll > 0) window.scrollBy(0, scroll);
  }

  function labelled(labelKey, text, className) {
    const line = el("p", className || null);
    line.append(el("span", "label", t(labelKey)), " ", el("bdi", "", text));
    return line;
  }

  function optionItems(order, positions) {
    const list = el("ul", "answer-list");
    for (const position of positions) {
      const option = order[position];
      const item = el("li");
      const line = el("p");
      line.append(el("span", "label", LETTERS[position] + ". "), el("bdi", "", option.text));
      item.append(line);
      if (option.feedback) item.append(el("p", "option-feedback", option.feedback));
      list.append(item);
    }
    return list;
  }

  // The feedback of one answer of any kind but single-choice, then the explanation.
  function kindFeedback(q, order, response) {
    const outcome = outcomeOf(q, response);
    const parts = [];
    if (q.kind === "multiple-response") {
      const picked = order.map((o, i) => [o, i]).filter(([o]) => response.includes(o.id)).map(([, i]) => i);
      const right = order.map((o, i) => [o, i]).filter(([o]) => q.correct.includes(o.id)).map(([, i]) => i);
      parts.push(el("p", "label", t("site.feedback.your_answer")), optionItems(order, picked));
      if (outcome.score < 1) parts.push(el("p", "label", t("site.feedback.correct_answer")), optionItems(order, right));
    } else if (q.kind === "true-false") {
      parts.push(labelled("site.feedback.your_answer", t(response ? "site.tf.true" : "site.tf.false")));
      if (response !== q.answer) parts.push(labelled("site.feedback.correct_answer", t(q.answer ? "site.tf.true" : "site.tf.false")));
      const said = response ? q.feedbackTrue : q.feedbackFalse;
      if (said) parts.push(el("p", "option-feedback", said));
    } else if (q.kind === "numerical") {
      const unit = q.units.length ? " " + q.units[response.unit].name : "";
      parts.push(labelled("site.feedback.your_answer", formatNumber(response.value) + unit));
      if (outcome.score < 1) {
        const first = q.units.length ? " " + q.units[0].name : "";
        parts.push(labelled("site.feedback.correct_answer", formatNumber(q.answer) + first));
        if (q.tolerance > 0) {
          parts.push(el("p", "option-feedback", t("site.num.range", { low: formatNumber(q.answer - q.tolerance) + first, high: formatNumber(q.answer + q.tolerance) + first })));
        }
      }
      if (outcome.miss >= 0) parts.push(el("p", "option-feedback near-miss", q.nearMisses[outcome.miss].feedback));
    } else if (q.kind === "short-answer") {
      parts.push(labelled("site.feedback.your_answer", response));
      if (outcome.answer >= 0 && q.answers[outcome.answer].feedback) parts.push(el("p", "option-feedback", q.answers[outcome.answer].feedback));
      if (outcome.score < 1) {
        const best = q.answers.reduce((a, b) => (b.credit > a.credit ? b : a));
        parts.push(labelled("site.feedback.correct_answer", best.text));
      }
    } else if (q.kind === "matching") {
      const list = el("ul", "answer-list match-review");
      q.pairs.forEach((pair, i) => {
        const item = el("li", outcome.right[i] ? "is-correct" : "is-wrong");
        const line = el("p");
        line.append(icon(outcome.right[i] ? "✓ " : "✗ "), hidden(t(outcome.right[i] ? "site.feedback.right" : "site.feedback.wrong") + " "),
          el("bdi", "match-prompt", pair.prompt), " → ", el("bdi", "", matchText(q, response[pair.id]) || ""));
        item.append(line);
        if (!outcome.right[i]) item.append(labelled("site.feedback.correct_answer", pair.answer, "option-feedback"));
        list.append(item);
      });
      parts.push(list);
    } else if (q.kind === "essay") {
      parts.push(el("p", "label", t("site.feedback.your_answer")), el("p", "essay-answer", response));
      if (q.modelAnswer) parts.push(el("h3", null, t("site.essay.model")), el("p", "model-answer", q.modelAnswer));
    } else if (q.kind === "ordering") {
      const yours = el("ol", "answer-list");
      for (const id of response) yours.append(el("li", null, q.items.find((item) => item.id === id).text));
      parts.push(el("p", "label", t("site.feedback.your_answer")), yours);
      if (outcome.score < 1) {
        const right = el("ol", "answer-list");
        for (const item of q.items) right.append(el("li", null, item.text));
        parts.push(el("p", "label", t("site.feedback.correct_answer")), right);
      }
    }
    if (q.explanation) parts.push(el("h3", null, t("site.feedback.explanation")), el("p", "explanation", q.explanation));
    return parts;
  }

  // Enter in a field of the answer checks it (Space ticks a box, as everywhere).
  // In a text box Enter starts a new line and Ctrl+Enter (Cmd+Enter) submits.
  $("response").addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.altKey) return;
    const target = event.target;
    if (!target.matches) return;
    const box = target.matches("textarea");
    if (box ? !(event.ctrlKey || event.metaKey) : event.ctrlKey || event.metaKey || !target.matches("input, select")) return;
    event.preventDefault();
    checkAnswer();
  });
  $("response").addEventListener("input", (event) => {
    if (event.target.removeAttribute) event.target.removeAttribute("aria-invalid");
    // A text being written is kept in the run as it is typed: a reload brings it back.
    if (session && !session.answered && event.target.matches && event.target.matches("textarea")) {
      session.draft = { id: current().id, text: event.target.value };
      runStore.save();
    }
  });
  $("response").addEventListener("change", (event) => {
    if (event.target.removeAttribute) event.target.removeAttribute("aria-invalid");
  });

  // The scoring, for tests and for anyone checking the page's arithmetic in its console.
  window.aistackPractice = Object.freeze({ score: outcomeOf, parseNumber: parseNumber, readNumerical: readNumerical, drawApart: drawApart });

  // --- Wiring -------------------------------------------------------------------------------

  $("practice-10").addEventListener("click", (event) => {
    const ids = drawApart(shuffle(questions.map((q) => q.id)), data.practiceCount, data.groups);
    start("site.practice10.title", ids, event.currentTarget);
  });
  $("practice-all").addEventListener("click", (event) => {
    start("site.practice_all.title", questions.map((q) => q.id), event.currentTarget);
  });
  $("practice-weak").addEventListener("click", (event) => {
    const ids = dueIds(progress().state);
    if (ids.length) start("site.weak.title", ids, event.currentTarget);
  });
  $("resume").addEventListener("click", () => resume(true));
  $("retry-missed").addEventListener("click", () => {
    const missed = finished ? finished.results.filter((r) => !r.right && !r.unscored).map((r) => r.id) : [];
    if (missed.length) start("site.retry.title", missed, finished.opener);
  });
  $("practice-weakest").addEventListener("click", (event) => {
    const tags = (event.currentTarget.dataset.tags || "").split(" ").filter(Boolean);
    if (!tags.length || !finished) return;
    const state = progress().state;
    const now = Date.now();
    // Questions of those tags, the ones due for review first, then the others at random.
    const tagged = shuffle(questions.filter((q) => q.tags.some((tag) => tags.includes(tag))).map((q) => q.id));
    const first = tagged.filter((id) => state[id] && state[id].due <= now);
    const ids = drawApart(first.concat(tagged.filter((id) => !first.includes(id))), data.practiceCount, data.groups);
    start("site.weakest.title", ids, finished.opener);
  });
  $("next").addEventListener("click", next);
  $("quiz-quit").addEventListener("click", leave);
  $("results-back").addEventListener("click", leave);
  $("export").addEventListener("click", exportAnswers);

  const dialog = $("reset-dialog");
  $("reset").addEventListener("click", () => {
    $("progress-status").textContent = "";
    dialog.showModal();
    $("reset-no").focus();
  });
  $("reset-no").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    if (!$("reset").hidden) $("reset").focus();
  });
  $("reset-yes").addEventListener("click", () => {
    store.clearLanguage();
    dialog.close();
    renderTopic();
    $("progress-status").textContent = t("site.reset.done");
    $("topic-title").focus();
  });

  // In the options (a radio group, one tab stop): arrow keys move, Enter or Space answers,
  // 1–9 or a–z answer directly. Single keys do nothing anywhere else on the page.
  $("options").addEventListener("keydown", (event) => {
    if (!session || event.ctrlKey || event.metaKey || event.altKey) return;
    const buttons = optionButtons();
    const at = buttons.indexOf(document.activeElement);
    let move = 0;
    // Down moves to the next option; Right does in a left-to-right page and Left in a
    // right-to-left one, as the browser does in a group of native radio buttons.
    const forward = document.documentElement.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
    const backward = forward === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
    if (event.key === "ArrowDown" || event.key === forward) move = 1;
    else if (event.key === "ArrowUp" || event.key === backward) move = -1;
    if (move || event.key === "Home" || event.key === "End") {
      event.preventDefault();
      if (session.answered) return;
      const target = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1 : (at + move + buttons.length) % buttons.length;
      buttons.forEach((button, index) => { button.tabIndex = index === target ? 0 : -1; });
      buttons[target].focus();
      return;
    }
    if (session.answered) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : "";
    let position = -1;
    if (key >= "1" && key <= "9") position = key.charCodeAt(0) - 49;
    else if (key >= "a" && key <= "z") position = key.charCodeAt(0) - 97;
    if (position >= 0 && position < buttons.length) {
      event.preventDefault();
      answer(position);
    }
  });

  // Escape leaves a run (its answers are kept); an open dialog closes itself first.
  // (In a text box Escape does nothing: a slip of the finger must not lose a written answer.)
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || dialog.open || visible("topic")) return;
    if (event.target && event.target.matches && event.target.matches("textarea")) return;
    event.preventDefault();
    leave();
  });

  if (window.matchMedia("(min-width: 48rem)").matches) $("tag-progress").open = true;
  $("practice-10").disabled = false;
  $("practice-all").disabled = false;
  $("progress").hidden = false;

  // A reload or a restored tab: the run kept in this tab comes back, on screen if it was.
  session = runStore.read();
  if (!session) runStore.clear();
  const state = history.state || {};
  if (state.view === "quiz" && session && session.id === state.attempt) {
    resume(false);
  } else if (state.view) {
    history.replaceState(null, ""); // results or a run that is gone: the topic
  }
  renderTopic();
})();
