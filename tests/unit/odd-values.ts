// Values every parameter is fed in the parameter tests (issue 16): Object.prototype names, a very
// long value, odd Unicode, separators and nothing at all.
export const ODD_VALUES: readonly string[] = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  // Over the 500 characters a value may have; short enough that an address of 26 of them is served.
  'x'.repeat(520),
  'w '.repeat(260),
  '\u202Eevil\u202C',
  'ａｐｉ',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🙂',
  'e\u0301\u0301\u0301',
  '\uFEFF\u200B',
  '\u0000',
  ' , ,, ',
  '-1',
  '1e309',
  '2025-02-30',
  '<img src=x onerror=alert(1)>',
];

/** Every parameter of /search/ (SPEC 4.2), with the forum's aliases. */
export const SEARCH_PARAMS: readonly string[] = [
  'tags', 'match', 'q', 'words', 'in', 'author', 'type', 'created', 'created_from', 'created_to', 'updated', 'updated_from', 'updated_to',
  'min_replies', 'min_views', 'max_replies', 'max_views', 'exclude_tags', 'sort', 'page',
  'search_in', 'search_and_or', 'start_after', 'start_before', 'updated_after', 'updated_before', 'search_min_replies', 'search_min_views', 'sortby',
];

/** Every parameter of /members/ (SPEC 4.3). */
export const MEMBER_PARAMS: readonly string[] = ['q', 'joined', 'joined_from', 'joined_to', 'group', 'twitter', 'website', 'jabber', 'location', 'interests', 'sort', 'dir', 'page'];
