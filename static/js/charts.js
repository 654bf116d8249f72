// The honest-reporting charts of a bout or season page, drawn with the locally served
// plotly.js from the JSON the page embeds (json_script). Layout rules that keep labels
// readable on any width: legends sit above the plot (never over an axis title), axes
// reserve room for their labels (automargin), axis titles are short enough for a phone,
// long agent names are shortened on the axes (the full name is in the hover), and point
// labels are only drawn where they fit.
//
// plotly.js is large (megabytes), so it is fetched only when the charts come near the
// screen: a phone reading the leaderboard never downloads it.
(function () {
  "use strict";
  var section = document.getElementById("charts-section");
  if (!section) return;

  var FONT = {family: "system-ui, -apple-system, 'Segoe UI', sans-serif", size: 12, color: "#1d232b"};
  var ACCENT = "#1f6feb", MUTED = "#8c959f", SECOND = "#bf8700";
  // No mode bar: on a small chart it sits on the legend; hover still shows every value.
  var CONFIG = {displaylogo: false, responsive: true, displayModeBar: false};

  function json(id) {
    var node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  // Plotly reads <a href>, <b>, <br> and entities in text as markup: every agent name it
  // is given (labels, ticks, categories, hovers) is entity-escaped so it shows as text.
  function plain(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }

  // An agent name for a chart: shortened to ``max`` characters, then escaped.
  function name(agent, max) {
    var text = String(agent);
    return plain(text.length > max ? text.slice(0, max - 1) + "\u2026" : text);
  }

  // One label per agent row; two competitors may each have an agent of the same name.
  function labels(rows) {
    var seen = {};
    rows.forEach(function (r) { seen[r.agent] = (seen[r.agent] || 0) + 1; });
    return rows.map(function (r) { return seen[r.agent] > 1 ? r.agent + " (" + r.competitor + ")" : r.agent; });
  }

  function legendOnTop() {
    return {orientation: "h", x: 0, xanchor: "left", y: 1.02, yanchor: "bottom", font: FONT};
  }

  function costAccuracy(element, data) {
    // Frontier points rise in cost and accuracy together, so their labels rarely collide;
    // dominated points are named in the hover only.
    var labelled = element.clientWidth >= 420 && data.frontier.length <= 6;
    var maxCost = Math.max.apply(null, data.points.map(function (p) { return p.cost; }).concat([0]));
    // Alternate label positions by cost order so neighbouring labels do not sit on each other.
    function positions(points) {
      return points.map(function (_, i) { return i % 2 ? "bottom center" : "top center"; });
    }
    var others = data.points.filter(function (p) { return !p.frontier; });
    var hover = "%{customdata}<br>$%{x:.4f} per attempt<br>%{y:.1%} solved<extra></extra>";
    var traces = [
      {x: data.frontier.map(function (p) { return p.cost; }), y: data.frontier.map(function (p) { return p.accuracy; }),
       customdata: data.frontier.map(function (p) { return name(p.agent, 60); }),
       text: data.frontier.map(function (p) { return name(p.agent, 16); }), textposition: positions(data.frontier),
       name: "Pareto frontier", mode: labelled ? "lines+markers+text" : "lines+markers", cliponaxis: false,
       line: {shape: "hv", color: ACCENT}, marker: {size: 11, color: ACCENT}, hovertemplate: hover},
      {x: others.map(function (p) { return p.cost; }), y: others.map(function (p) { return p.accuracy; }),
       customdata: others.map(function (p) { return name(p.agent, 60); }),
       name: "dominated", mode: "markers", cliponaxis: false,
       marker: {size: 9, color: MUTED}, hovertemplate: hover}
    ];
    Plotly.newPlot(element, traces, {
      font: FONT, margin: {t: 36, r: 16, b: 8, l: 8},
      xaxis: {title: {text: "Cost per attempt (USD, reported)", standoff: 8}, automargin: true, tickprefix: "$",
              range: [0, (maxCost || 1) * 1.18], zeroline: false},
      yaxis: {title: {text: "Solve rate (pass@1)", standoff: 6}, automargin: true, tickformat: ".0%",
              range: [-0.08, 1.15], tickvals: [0, 0.25, 0.5, 0.75, 1]},
      legend: legendOnTop(), hovermode: "closest"
    }, CONFIG);
  }

  function passAtK(element, data) {
    var rows = data.pass;
    var full = labels(rows);
    var names = full.map(plain);  // the categories
    var short = full.map(function (label) { return name(label, element.clientWidth < 520 ? 12 : 22); });
    element.style.height = Math.max(260, 90 + rows.length * 56) + "px";
    function bar(key, label, color) {
      return {
        type: "bar", orientation: "h", name: label, y: names, marker: {color: color},
        x: rows.map(function (r) { return r[key] === null ? 0 : r[key]; }),
        text: rows.map(function (r) { return r[key] === null ? "n/a" : (r[key] * 100).toFixed(0) + "%"; }),
        textposition: "outside", cliponaxis: false,
        customdata: rows.map(function (r, i) { return [name(full[i], 60), r.n]; }),
        hovertemplate: "%{customdata[0]}<br>" + label + " %{x:.1%}<br>n = %{customdata[1]} decided attempts<extra></extra>"
      };
    }
    Plotly.newPlot(element, [bar("pass_at_1", "pass@1", ACCENT), bar("pass_at_k", "pass@" + data.k, SECOND)], {
      font: FONT, barmode: "group", margin: {t: 36, r: 36, b: 8, l: 8},
      xaxis: {title: {text: "Solve rate", standoff: 8}, automargin: true,
              tickformat: ".0%", range: [0, 1.12], tickvals: [0, 0.25, 0.5, 0.75, 1]},
      yaxis: {automargin: true, autorange: "reversed", tickvals: names, ticktext: short.map(function (s, i) {
        return s + " (n=" + rows[i].n + ")"; })},
      legend: legendOnTop()
    }, CONFIG);
  }

  function latency(element, data) {
    var rows = data.latency;
    var full = labels(rows);
    var names = full.map(plain);  // the categories
    var width = element.clientWidth < 520 ? 12 : 22;
    element.style.height = Math.max(260, 90 + rows.length * 56) + "px";
    var traces = rows.map(function (r, i) {
      return {
        type: "box", orientation: "h", x: r.seconds, y: r.seconds.map(function () { return names[i]; }),
        name: names[i], boxpoints: "all", jitter: 0.35, pointpos: 0, marker: {size: 5, color: ACCENT},
        line: {color: ACCENT}, fillcolor: "rgba(31,111,235,0.12)", showlegend: false,
        customdata: r.seconds.map(function () { return name(full[i], 60); }),
        hovertemplate: "%{customdata}<br>%{x:.1f} s<extra></extra>"
      };
    });
    Plotly.newPlot(element, traces, {
      font: FONT, margin: {t: 12, r: 16, b: 8, l: 8},
      xaxis: {title: {text: "Seconds (server clock)", standoff: 8}, automargin: true,
              rangemode: "tozero", zeroline: false},
      yaxis: {automargin: true, autorange: "reversed", tickvals: names,
              ticktext: full.map(function (label) { return name(label, width); })}
    }, CONFIG);
  }

  function draw() {
    var chart = json("cost-accuracy-data");
    var distribution = json("distribution-data");
    var element;
    if (chart && chart.points.length && (element = document.getElementById("cost-accuracy-chart"))) costAccuracy(element, chart);
    if (distribution && distribution.pass.length && (element = document.getElementById("pass-at-k-chart"))) passAtK(element, distribution);
    if (distribution && distribution.latency.length && (element = document.getElementById("latency-chart"))) latency(element, distribution);
  }

  function load() {
    if (!section.querySelector(".chart")) return;  // only empty states: nothing to draw
    var script = document.createElement("script");
    script.src = section.dataset.plotly;
    script.onload = draw;
    document.head.appendChild(script);
  }

  if (!("IntersectionObserver" in window)) { load(); return; }
  var observer = new IntersectionObserver(function (entries) {
    if (entries.some(function (entry) { return entry.isIntersecting; })) { observer.disconnect(); load(); }
  }, {rootMargin: "600px 0px"});
  observer.observe(section);
})();
