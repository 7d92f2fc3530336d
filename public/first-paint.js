// Runs in <head>, before the first paint of a listing page (search, tag, member and link pages).
// The page's static listing answers its address without a query string; an address with
// parameters may ask for other filters, so the page is marked and site.css keeps that listing
// hidden until the page's own script has shown this address's answer (or found it is the same).
// A file, not inline code, so a strict Content-Security-Policy (script-src 'self') allows it.
if (/[?&][^=&#]+=[^&#]/.test(location.search)) document.documentElement.setAttribute('data-address-filters', '');

// /search/ opened with words alone (a shared link, answered in the page from the word index,
// without core.json): words.json is asked for now, while the page still loads, and handed to the
// page's search as `tagsiteWordsFile` (Searcher.wordsFile). Plain words (letters and digits) also
// have their vocabulary and postings files asked for as soon as it is here, by the rules of
// src/search/words.ts (firstWordFiles), and handed over in `tagsiteWordFiles` (path → JSON);
// anything else waits for the page's own script. Other addresses search in a worker, which could
// not use them.
(function () {
  var script = document.currentScript;
  var wordsIndex = script && script.dataset.wordsIndex;
  var params = new URLSearchParams(location.search);
  var q = (params.get('q') || '').trim().toLowerCase();
  var wordsAlone = q !== '' && Array.from(params.keys()).every(function (name) { return ['q', 'words', 'in', 'page'].indexOf(name) >= 0; });
  if (!wordsIndex || !wordsAlone) return;
  var base = wordsIndex.slice(0, wordsIndex.lastIndexOf('/') + 1);
  var read = function (url, name) {
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error('could not load ' + name + ' (HTTP ' + response.status + ')');
      return response.json();
    });
  };
  var words = read(wordsIndex, 'words.json');
  var files = {};
  window.tagsiteWordsFile = words;
  window.tagsiteWordFiles = files;
  var plain = /^[a-z0-9\s]+$/.test(q);
  words.then(function (info) {
    if (!plain) return;
    q.split(/\s+/).forEach(function (word) {
      var key = word.charCodeAt(0).toString(16);
      if (info.vocabKeys.indexOf(key) < 0) return;
      // The word's postings shard: the last whose first term is not after it.
      var bounds = info.postingBounds;
      var low = 0;
      var high = bounds.length - 1;
      while (low < high) {
        var mid = (low + high + 1) >> 1;
        if (bounds[mid] <= word) low = mid;
        else high = mid - 1;
      }
      ['vocab/' + key + '.json', 'postings/' + low + '.json'].forEach(function (path) {
        if (files[path]) return;
        files[path] = read(base + path, path);
        files[path].catch(function () {
          // the page's search reports it
        });
      });
    });
  }, function () {
    // the page's search reports it
  });
})();
