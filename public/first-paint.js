// Runs in <head>, before the first paint of a listing page (search, tag, member and link pages).
// The page's static listing answers its address without a query string; an address with
// parameters may ask for other filters, so the page is marked and site.css keeps that listing
// hidden until the page's own script has shown this address's answer (or found it is the same).
// A file, not inline code, so a strict Content-Security-Policy (script-src 'self') allows it.
if (/[?&][^=&#]+=[^&#]/.test(location.search)) document.documentElement.setAttribute('data-address-filters', '');
