// 长辈模式 before the first paint (decision 035): the class the stylesheet enlarges the site by, from
// the choice the switch kept in localStorage. A file of its own, not inline: the CSP allows no
// inline script. lib/elder-mode.ts reads and writes the same key.
/* global document */
try {
  if (localStorage.getItem('zhikaoyun-v1-elder-mode') === 'true') document.documentElement.classList.add('elder-mode');
} catch {
  // Storage switched off: the site shows in its usual size.
}
