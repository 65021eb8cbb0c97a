// curves.js draws, under the inspector's board, the match's key metric
// curves with a cursor at the turn shown, as lichess draws its evaluation
// graph under the board: a click or a drag on a curve shows that turn. The
// game names its key metrics (metric.key); the others are a click away on
// the buttons above the curves. It reads the turn from the heading
// (#turn-number), which the inspector keeps current, and moves the board
// through the inspector's own go-to form, so the two never disagree.
(function () {
  'use strict';
  var root = document.getElementById('curves');
  var number = document.getElementById('turn-number');
  if (!root || !number || !window.echarts) return;
  var meta = JSON.parse(document.getElementById('inspector-meta').textContent);
  var picks = root.querySelector('.curve-picks');
  var holder = root.querySelector('.curve-charts');
  var gotoForm = document.getElementById('goto');
  var gotoInput = document.getElementById('goto-turn');
  var api = '/api/v1/matches/' + meta.id + '/series/';
  var dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  var colors = {};
  (meta.players || []).forEach(function (p) { colors[p.seat] = p.color; });
  var charts = {}; // metric name -> {chart, el}
  var metrics = meta.metrics || [];
  var keys = metrics.filter(function (m) { return m.key; });
  if (keys.length === 0) keys = metrics.slice(0, 2); // a game that names none

  function turn() { return Number(number.textContent) || 0; }

  function cursor(t) {
    return {silent: true, symbol: 'none', animation: false, label: {show: false},
      lineStyle: {color: dark ? '#e2e8f0' : '#1a202c', type: 'solid', width: 1.5}, data: [{xAxis: t}]};
  }

  // show asks the inspector for turn t, as a reader typing it would.
  function show(t) {
    t = Math.max(0, Math.min(meta.turns, Math.round(t)));
    if (t === turn()) return;
    gotoInput.value = String(t);
    if (gotoForm.requestSubmit) gotoForm.requestSubmit(); else gotoForm.dispatchEvent(new Event('submit', {cancelable: true}));
  }

  function draw(m) {
    var el = document.createElement('div');
    el.className = 'curve';
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', m.label + ' by turn; click to show a turn');
    holder.appendChild(el);
    var chart = echarts.init(el, dark ? 'dark' : null, {renderer: 'canvas'});
    charts[m.name] = {chart: chart, el: el};
    chart.showLoading({text: ''});
    fetch(api + encodeURIComponent(m.name) + '?points=600').then(function (r) {
      if (!r.ok) throw new Error(r.statusText);
      return r.json();
    }).then(function (s) {
      chart.hideLoading();
      var series = s.lines.map(function (l, i) {
        var data = l.values.map(function (v, j) { return [l.turns ? l.turns[j] : j, v]; });
        return {type: 'line', name: l.name, data: data, showSymbol: false, step: m.kind === 'counter' ? false : 'end',
          lineStyle: {width: 1.5}, color: colors[l.seat], emphasis: {disabled: true},
          markLine: i === 0 ? cursor(turn()) : undefined};
      });
      chart.setOption({
        backgroundColor: 'transparent', animation: false,
        title: {text: m.label + (m.unit ? ' (' + m.unit + ')' : ''), left: 0, top: 0, textStyle: {fontSize: 12}},
        grid: {left: 44, right: 12, top: 24, bottom: 22},
        tooltip: {trigger: 'axis', confine: true, axisPointer: {type: 'line'}},
        xAxis: {type: 'value', min: 0, max: meta.turns, axisLabel: {fontSize: 10}},
        yAxis: {type: 'value', scale: true, axisLabel: {fontSize: 10}},
        series: series
      });
    }, function (err) {
      chart.hideLoading();
      el.textContent = 'Could not load ' + m.label + ': ' + err.message;
    });
    // A click, or a drag with the button held, shows the turn under the
    // pointer, anywhere in the plot.
    var zr = chart.getZr();
    var dragging = false;
    function at(e) {
      var p = chart.convertFromPixel({gridIndex: 0}, [e.offsetX, e.offsetY]);
      if (p && isFinite(p[0])) show(p[0]);
    }
    zr.on('mousedown', function (e) { dragging = true; at(e); });
    zr.on('mousemove', function (e) { if (dragging) at(e); });
    zr.on('mouseup', function () { dragging = false; });
    zr.on('globalout', function () { dragging = false; });
  }

  function toggle(m, button) {
    var c = charts[m.name];
    if (c) {
      c.chart.dispose();
      c.el.remove();
      delete charts[m.name];
    } else {
      draw(m);
    }
    button.setAttribute('aria-pressed', charts[m.name] ? 'true' : 'false');
  }

  metrics.forEach(function (m) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.short || m.label;
    b.title = m.label;
    b.dataset.metric = m.name;
    b.setAttribute('aria-pressed', 'false');
    b.addEventListener('click', function () { toggle(m, b); });
    picks.appendChild(b);
    if (keys.indexOf(m) >= 0) toggle(m, b);
  });

  function follow() {
    var t = turn();
    Object.keys(charts).forEach(function (name) {
      var c = charts[name].chart;
      var opt = c.getOption();
      if (opt && opt.series && opt.series.length) c.setOption({series: [{markLine: cursor(t)}]});
    });
  }
  new MutationObserver(follow).observe(number, {childList: true, characterData: true, subtree: true});
  window.addEventListener('resize', function () {
    Object.keys(charts).forEach(function (name) { charts[name].chart.resize(); });
  });
})();
