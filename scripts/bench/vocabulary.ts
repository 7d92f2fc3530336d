/**
 * Words for the benchmark corpus. Bodies mix very common English words, forum and technical words
 * (what people search for: workflow, clipboard, json, api …) and a long tail of rare made-up words,
 * so the vocabulary grows with the corpus as a real one does (Heaps' law).
 */

const words = (text: string): string[] => text.trim().split(/\s+/u);

/** The most common English words, most frequent first (drawn with a Zipf law). */
export const COMMON = words(`
  the to and a of i it is in that you for this with on my be not have but if can so do
  as or are at was what just when from an there get one would all me use like then about
  them by will any which some out up has only also there way now how here other more
  should could because still than into been after their need want think know see try
  same new first make work does did time thing something problem set run way back
  really much while where without again before every each both well your our why who
  even many different around since through able over most those these another find
  right sure thanks help able between already yet though enough instead maybe always
  never sometimes often probably actually simply quite pretty exactly perhaps anyone
  someone everything nothing anything everyone last next long little own good great
  better best small large big simple easy hard possible whole last few several
  working looks seems tried trying using used getting makes made takes took gives gave
  found shows shown keeps kept starts started stops stopped works worked fails failed
  says said asks asked wants wanted needs needed means meant calls called opens opened
`);

/** Everyday forum words (nouns, verbs, adjectives), drawn with a gentler Zipf law. */
export const GENERAL = words(`
  idea question answer example solution issue step steps way case result results list
  name names value values text line lines word words page pages item items part parts
  people user users team friend colleague morning evening day week month year today
  minute minutes second seconds hour hours moment end start beginning middle side top
  bottom left right front inside outside default custom manual automatic quick slow
  fast faster easier cleaner simpler nicer broken fixed missing empty full wrong correct
  strange weird odd annoying useful handy helpful clever neat tiny huge whole entire
  change changes update updates version versions release feature features request
  requests bug bugs fix fixes report reports support thread post posts reply replies
  forum topic topics community guide guides tutorial tutorials documentation docs note
  notes tip tips trick tricks approach method option options choice choices setting
  settings preference preferences menu button buttons field fields box boxes dialog
  screen screens display window windows tab tabs panel sidebar toolbar icon icons app
  apps application applications program tool tools machine computer laptop desktop
  phone tablet device devices office home work project projects task tasks job jobs
  list order orders invoice invoices receipt receipts photo photos picture pictures
  document documents folder folders directory path paths name extension backup backups
  copy copies paste move moved delete deleted remove removed add added create created
  open close save saved load loaded send sent receive received check checked click
  clicked press pressed type typed select selected choose chosen show hidden visible
  enable enabled disable disabled allow allowed block blocked wait waiting finish
  finished begin started trigger triggered repeat repeated schedule scheduled convert
  converted format formatted clean cleaned sort sorted filter filtered group grouped
  count counted measure compare compared combine combined split merge merged rename
  renamed resize resized rotate crop export exported import imported share shared
  install installed upgrade upgraded restart restarted reboot crash crashed freeze
  hang slowdown speed performance memory battery network connection internet offline
  online local remote cloud server client account accounts login password email
  message messages notification notifications alert alerts reminder reminders calendar
  event events meeting meetings contact contacts address addresses number numbers
  date dates time times timer counter random daily weekly monthly yearly nightly
  morning weekend holiday travel weather music podcast video videos movie audio
  sound volume brightness dark light mode theme color colour font size width height
`);

/** Technical and product words people search a community like this for. */
export const TECHNICAL = words(`
  workflow workflows clipboard json api apis shell script scripts scripting regex
  regular expression http https request response token oauth webhook webhooks action
  actions variable variables loop loops condition conditions trigger triggers hotkey
  hotkeys shortcut shortcuts keyboard macro macros automation automate automated
  applescript jxa javascript python bash zsh terminal cron launchd daemon menubar
  finder safari chrome firefox browser url urls download downloads upload uploads
  endpoint endpoints header headers payload parse parsing encode decode base64 utf8
  unicode timeout error errors debug debugging log logs console plugin plugins
  extension extensions template templates snippet snippets screenshot screenshots ocr
  pdf pdfs image images csv xml yaml toml markdown html css dom selector xpath jsonpath
  jq sqlite database query queries table column row spreadsheet excel numbers github
  gitlab git commit repository issue pull dropbox icloud sync synced syncing ssh docker
  node npm homebrew brew process processes cpu wifi bluetooth spotify youtube transcript
  translate translation locale timezone timestamp timestamps duration uuid hash md5
  sha256 encryption keychain secret credentials cookie cookies session cache proxy vpn
  dns domain certificate ssl tls websocket graphql rest config configuration plist
  defaults subroutine function functions callback async await promise queue batch
  parallel dictionary dictionaries array arrays object objects string strings boolean
  null integer float regexp replace match split join trim map reduce sorting
  filtering iterate iteration recursion dialog prompt input output stdin stdout stderr
  argument arguments parameter parameters environment env path utility utilities
  filename filenames rename renaming watcher watch watched folder hazel alfred
  raycast shortcuts keyboard maestro flowsmith flowsmiths beta stable changelog
  accessibility permission permissions sandbox notarization signing entitlement
  rss feed feeds scraping scraper curl wget fetch post get put patch delete status
  slack discord telegram imap smtp gmail outlook notion obsidian todoist things
`);

/** First names for member names. */
export const FIRST_NAMES = words(`
  mira gustav okonkwo felix tomasz ana lena jonas priya wei yuki omar sofia lucas emma
  noah liam olivia mateo chloe hugo ines leo nina paul rosa sam tara uma victor wanda
  xavier yara zoe aiko bruno carla diego elena farid greta hana ivan jade kai lars maya
  nils oskar pia quinn rafael selma theo ulla vera wim xena yusuf zara amir bea cyril
  dara eli fatima gael hiro isla jun kira luca mehdi nora otto petra rui sven tess
  amara bjorn cosima dmitri esme finn gia henrik ilse jasper kenji lotte marek nadia
`);

/** Curated real-looking tags, the most common first. The rest of a corpus's tags are made from words. */
export const TAGS = words(`
  workflow api json help automation shell clipboard scripting applescript javascript
  http regex files python text beta release bug feature-request macos windows menubar
  hotkeys csv markdown webhook oauth terminal jxa browser safari chrome notifications
  calendar email pdf images ocr screenshots dropbox icloud sync backup github git rss
  xml yaml sqlite database spreadsheet excel dates timers variables loops conditions
  dialogs keyboard mouse accessibility permissions install setup performance memory
  errors debugging logging plugins extensions templates snippets translation unicode
  encoding base64 curl docker node npm homebrew launchd cron ssh dns certificates
  proxy vpn websocket graphql rest slack discord telegram gmail notion obsidian todoist
  spotify youtube podcasts music video audio finder folders rename hazel alfred raycast
  showcase tutorial guide question idea off-topic announcement meta c++ c# node.js
`).concat(['ui automation', 'Text Expansion']); // a tag with a space, one written in capitals

/** Syllables that rare made-up words (app names, jargon, typos, identifiers) are built from. */
export const SYLLABLES = words(`
  ka lo mi re ta vo zu fen gar hol jin kes lum mar nor pel quo ris sal tor ul ven wex
  yar zim bra cle dri fro gli pra sto tri vla xen cor dan el fi go ha in ju ke la
  mo nu or pi qua ro si tu ur vi wa xo yo ze ber cal dor fin gor hul kal lin mun
  nex pol rak sen tal vor wyn zel ox ix ax um
`);
