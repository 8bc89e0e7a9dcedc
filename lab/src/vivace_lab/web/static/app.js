// Saved filters of the runs list: a name and the URL of the filter, kept in this browser.
// The URL itself is the shareable form of a filter; saving only gives it a name here.
(function () {
  const KEY = "vivace-lab-saved-filters";
  function load() { try { return JSON.parse(localStorage.getItem(KEY) || "[]"); } catch (e) { return []; } }
  function show() {
    const box = document.getElementById("saved-filters");
    if (!box) return;
    box.textContent = "";
    const saved = load();
    if (!saved.length) { box.textContent = "No saved filters yet."; return; }
    box.append("Saved filters: ");
    saved.forEach(function (item, i) {
      const a = document.createElement("a"); a.href = item.url; a.textContent = item.name;
      a.className = "saved-filter"; box.append(a);
      const x = document.createElement("button"); x.type = "button"; x.textContent = "×";
      x.title = "forget " + item.name;
      x.onclick = function () { const s = load(); s.splice(i, 1); localStorage.setItem(KEY, JSON.stringify(s)); show(); };
      box.append(x, " ");
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    const button = document.getElementById("save-filter");
    if (button) button.onclick = function () {
      const name = (document.getElementById("filter-name").value || "").trim() || location.search || "all runs";
      const saved = load().filter(function (s) { return s.name !== name; });
      saved.push({ name: name, url: location.pathname + location.search });
      localStorage.setItem(KEY, JSON.stringify(saved));
      show();
    };
    const all = document.getElementById("select-all");
    if (all) all.onchange = function () {
      document.querySelectorAll("input[name=run]").forEach(function (c) { c.checked = all.checked; });
    };
    show();
  });
})();
