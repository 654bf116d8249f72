// Integrity charts of the weekly/monthly reports and the staff dashboards, drawn with the
// locally served (or, in a downloaded report, inlined) plotly.js from the JSON the page
// embeds in <script id="integrity-charts">. Every chart element is a div with
// data-chart="<id>"; a chart with nothing to draw says so instead of showing empty axes.
(function () {
  "use strict";
  var FONT = {family: "system-ui, -apple-system, 'Segoe UI', sans-serif", size: 12, color: "#1d232b"};
  var ACCENT = "#1f6feb", MUTED = "#8c959f", ALERT = "#cf222e", GOOD = "#2da44e", WARN = "#bf8700";
  var STATE_COLOUR = {ok: GOOD, watch: WARN, alert: ALERT, no_data: MUTED};
  var CONFIG = {displaylogo: false, responsive: true, displayModeBar: false};

  function data() {
    var node = document.getElementById("integrity-charts");
    return node ? JSON.parse(node.textContent) : {};
  }

  function plain(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }

  function layout(extra) {
    var base = {font: FONT, margin: {l: 56, r: 16, t: 12, b: 48}, height: 260, showlegend: false,
                paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)",
                xaxis: {automargin: true, type: "category"}, yaxis: {automargin: true, zeroline: false}};
    for (var k in extra) { base[k] = extra[k]; }
    return base;
  }

  function scale(unit) { return unit === "ratio" ? 100 : 1; }
  function suffix(unit) { return unit === "ratio" ? " %" : unit === "hours" ? " h" : ""; }

  function empty(element, message) {
    element.classList.add("chart-empty");
    element.textContent = message;
  }

  function metricChart(element, chart) {
    var points = chart.points.filter(function (p) { return p.value !== null; });
    if (!points.length) { return empty(element, "No data yet: nothing was measured in the periods shown."); }
    var k = scale(chart.unit), b = chart.bounds || {};
    var values = points.map(function (p) { return p.value * k; });
    var extras = [b.alert_max, b.target_max, b.target_min, b.alert_min].filter(function (v) {
      return v !== null && v !== undefined; }).map(function (v) { return v * k; });
    var top = Math.max.apply(null, values.concat(extras)) * 1.15 || 1;
    var shapes = [];
    var low = b.target_min !== null && b.target_min !== undefined ? b.target_min * k : 0;
    var high = b.target_max !== null && b.target_max !== undefined ? b.target_max * k : top;
    shapes.push({type: "rect", xref: "paper", x0: 0, x1: 1, y0: low, y1: high, line: {width: 0},
                 fillcolor: "rgba(45,164,78,0.12)", layer: "below"});
    ["alert_min", "alert_max"].forEach(function (name) {
      if (b[name] !== null && b[name] !== undefined) {
        shapes.push({type: "line", xref: "paper", x0: 0, x1: 1, y0: b[name] * k, y1: b[name] * k,
                     line: {color: ALERT, width: 1, dash: "dash"}});
      }
    });
    var trace = {
      x: chart.points.map(function (p) { return p.period; }),
      y: chart.points.map(function (p) { return p.value === null ? null : p.value * k; }),
      mode: "lines+markers", connectgaps: false, line: {color: ACCENT, width: 2},
      marker: {size: 9, color: chart.points.map(function (p) { return STATE_COLOUR[p.state] || MUTED; })},
      hovertemplate: "%{x}: %{y:.2f}" + suffix(chart.unit) + "<extra></extra>"
    };
    Plotly.newPlot(element, [trace], layout({shapes: shapes, yaxis: {automargin: true, zeroline: false,
      ticksuffix: suffix(chart.unit), range: [0, top]}}), CONFIG);
  }

  function tierChart(element, chart) {
    var rows = chart.tiers.filter(function (r) { return r.attempts > 0; });
    if (!rows.length) { return empty(element, "No data yet: no finished attempts in this period."); }
    var x = chart.tiers.map(function (r) { return "Tier " + r.tier; });
    var band = {
      x: x, y: chart.tiers.map(function (r) { return (r.expected_max - r.expected_min) * 100; }),
      base: chart.tiers.map(function (r) { return r.expected_min * 100; }), type: "bar", name: "expected",
      marker: {color: "rgba(45,164,78,0.25)"}, width: 0.7,
      hovertemplate: "%{x} expected %{base:.0f}–%{y:.0f} %<extra></extra>"
    };
    var actual = {
      x: x, y: chart.tiers.map(function (r) { return r.rate === null ? null : r.rate * 100; }),
      mode: "markers", type: "scatter", name: "actual",
      text: chart.tiers.map(function (r) { return r.solved + " / " + r.attempts; }),
      marker: {size: 12, color: ACCENT, symbol: "diamond"},
      hovertemplate: "%{x}: %{y:.1f} % (%{text})<extra></extra>"
    };
    Plotly.newPlot(element, [band, actual], layout({showlegend: true, barmode: "overlay",
      legend: {orientation: "h", x: 0, y: 1.02, yanchor: "bottom"},
      yaxis: {automargin: true, range: [0, 105], ticksuffix: " %"}}), CONFIG);
  }

  function barChart(element, chart) {
    var total = chart.values.reduce(function (a, b) { return a + b; }, 0);
    if (!total) { return empty(element, chart.empty || "No data yet."); }
    Plotly.newPlot(element, [{x: chart.labels.map(plain), y: chart.values, type: "bar",
      marker: {color: chart.colours || ACCENT}, hovertemplate: "%{x}: %{y}<extra></extra>"}],
      layout({yaxis: {automargin: true, rangemode: "tozero"}}), CONFIG);
  }

  function seriesChart(element, chart) {
    var any = chart.series.some(function (s) { return s.y.some(function (v) { return v !== null; }); });
    if (!any) { return empty(element, chart.empty || "No data yet."); }
    var k = scale(chart.unit);
    var traces = chart.series.map(function (s) {
      return {x: chart.x, y: s.y.map(function (v) { return v === null ? null : v * k; }), name: plain(s.name),
              mode: "lines+markers", type: s.bar ? "bar" : "scatter",
              hovertemplate: plain(s.name) + " %{x}: %{y:.1f}" + suffix(chart.unit) + "<extra></extra>"};
    });
    Plotly.newPlot(element, traces, layout({showlegend: chart.series.length > 1,
      legend: {orientation: "h", x: 0, y: 1.02, yanchor: "bottom"},
      yaxis: {automargin: true, rangemode: "tozero", ticksuffix: suffix(chart.unit)}}), CONFIG);
  }

  var DRAW = {metric: metricChart, tiers: tierChart, bars: barChart, series: seriesChart};

  function drawAll() {
    var charts = data().charts || {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-chart]"), function (element) {
      var chart = charts[element.getAttribute("data-chart")];
      if (!chart) { return empty(element, "No data yet."); }
      if (typeof Plotly === "undefined") { return empty(element, "Charts need plotly.js, which did not load."); }
      DRAW[chart.kind](element, chart);
    });
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", drawAll); }
  else { drawAll(); }
})();
