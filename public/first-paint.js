// Runs in <head>, before the first paint of a listing page (search, tag, member and link pages).
// The page's static listing answers its address without a query string; an address with
// parameters may ask for other filters, so the page is marked and site.css keeps that listing
// hidden until the page's own script has shown this address's answer (or found it is the same).
// A file, not inline code, so a strict Content-Security-Policy (script-src 'self') allows it.
if (/[?&][^=&#]+=[^&#]/.test(location.search)) document.documentElement.setAttribute('data-address-filters', '');

// /search/ opened with words alone (a shared link, answered from the word index without core.json):
// its first index file is asked for now, alongside the page's scripts, which then read it from the
// preload cache. Other addresses search in a worker, which cannot read it there.
(function () {
  var wordsIndex = document.currentScript && document.currentScript.dataset.wordsIndex;
  var params = new URLSearchParams(location.search);
  var wordsAlone = (params.get('q') || '').trim() !== '' && Array.from(params.keys()).every(function (name) { return ['q', 'words', 'in', 'page'].indexOf(name) >= 0; });
  if (wordsIndex && wordsAlone) {
    var preload = document.createElement('link');
    preload.rel = 'preload';
    preload.as = 'fetch';
    preload.crossOrigin = 'anonymous';
    preload.href = wordsIndex;
    document.head.appendChild(preload);
  }
})();
