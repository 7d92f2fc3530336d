// Runs in <head>, before the first paint of a listing page (search, tag, member and link pages).
// The page's static listing answers its address without a query string; an address with
// parameters may ask for other filters, so the page is marked and site.css keeps that listing
// hidden until the page's own script has shown this address's answer (or found it is the same).
// Inlined into each listing page's <head> without its comments (src/outputs/first-paint.ts), so no
// request holds up the parser; the site's Content-Security-Policy allows it by its hash.
if (/[?&][^=&#]+=[^&#]/.test(location.search)) document.documentElement.setAttribute('data-address-filters', '');

// /search/ opened with words (a shared link): words.json is handed to the page's search as
// `tagsiteWordsFile` (Searcher.wordsFile). A built page holds its text in this script's data-words
// (src/build/search-page.ts), so no request waits for it; `astro dev`'s page asks for it now,
// while the page still loads. Plain words
// (letters and digits) also have their vocabulary and postings files asked for as soon as it is
// here, by the rules of src/search/words.ts (firstWordFiles), and handed over in `tagsiteWordFiles`
// (path → JSON); anything else waits for the page's own script. Words alone are answered from those
// files; words with other parameters need the site's core.json too: on a site small enough to
// search in the page's own thread (the script's data-core-index says where it is), it is asked for
// now as well and handed over as `tagsiteCoreFile` (Searcher.readIndex). Bigger sites search those
// in a worker, which could not use them.
(function () {
  var script = document.currentScript;
  var wordsIndex = script && script.dataset.wordsIndex;
  var coreIndex = script && script.dataset.coreIndex;
  var params = new URLSearchParams(location.search);
  var q = (params.get('q') || '').trim().toLowerCase();
  var wordsAlone = Array.from(params.keys()).every(function (name) { return ['q', 'words', 'in', 'page'].indexOf(name) >= 0; });
  if (!wordsIndex || q === '' || (!wordsAlone && !coreIndex)) return;
  var base = wordsIndex.slice(0, wordsIndex.lastIndexOf('/') + 1);
  var read = function (url, name) {
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error('could not load ' + name + ' (HTTP ' + response.status + ')');
      return response.json();
    });
  };
  if (!wordsAlone) {
    window.tagsiteCoreFile = read(coreIndex, 'core.json');
    window.tagsiteCoreFile.catch(function () {
      // the page's search reports it
    });
  }
  var inline = script.dataset.words;
  var words = inline ? Promise.resolve().then(function () {
    return JSON.parse(inline);
  }) : read(wordsIndex, 'words.json');
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
      var paths = ['vocab/' + key + '.json', 'postings/' + low + '.json'];
      // And each next shard whose first term starts with the word: the terms it is a prefix of (prefixShards).
      for (var next = low + 1; word.length >= 3 && next < bounds.length && next <= low + 8 && bounds[next].indexOf(word) === 0; next++) paths.push('postings/' + next + '.json');
      paths.forEach(function (path) {
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
