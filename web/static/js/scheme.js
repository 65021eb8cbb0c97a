// scheme.js lets the dashboard's chart scripts (charts.js, compare.js)
// draw ECharts charts in the colours of the system's scheme, light or
// dark: the stylesheet gives them as --chart-* properties, since ECharts
// draws on a canvas, which CSS does not reach.
window.ReplayLabScheme = (function () {
  'use strict';
  // paint draws a chart in the scheme's colours and marks its element
  // with the scheme's name (data-scheme).
  function paint(chart, el) {
    var css = getComputedStyle(document.documentElement);
    function v(name) { return css.getPropertyValue(name).trim(); }
    var text = v('--chart-text'), line = v('--chart-line'), card = v('--card');
    var axis = {
      nameTextStyle: { color: text }, axisLabel: { color: text },
      axisLine: { lineStyle: { color: text } }, axisTick: { lineStyle: { color: text } },
      splitLine: { lineStyle: { color: line } }
    };
    var zoom = {
      textStyle: { color: text }, borderColor: line,
      dataBackground: { lineStyle: { color: text }, areaStyle: { color: line } },
      handleStyle: { color: card, borderColor: text }, moveHandleStyle: { color: line }
    };
    var option = chart.getOption();
    function each(list, part) { return (list || []).map(function () { return part; }); }
    chart.setOption({
      backgroundColor: v('--chart-bg'),
      title: each(option.title, { textStyle: { color: text }, subtextStyle: { color: text } }),
      legend: each(option.legend, { textStyle: { color: text }, inactiveColor: v('--chart-off') }),
      xAxis: each(option.xAxis, axis),
      yAxis: each(option.yAxis, axis),
      tooltip: each(option.tooltip, { backgroundColor: card, borderColor: line, textStyle: { color: text } }),
      dataZoom: each(option.dataZoom, zoom),
      toolbox: each(option.toolbox, { iconStyle: { borderColor: text }, emphasis: { iconStyle: { textFill: text } } })
    });
    el.setAttribute('data-scheme', v('--chart-scheme'));
  }
  // onChange calls fn when the system's scheme changes.
  function onChange(fn) {
    if (window.matchMedia) window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', fn);
  }
  return { paint: paint, onChange: onChange };
})();
