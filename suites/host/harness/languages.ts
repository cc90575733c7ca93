/**
 * HOST-17: "an array of language names in English" (2.4 item 3), judged fairly. An English name
 * may carry letters outside ASCII, parentheses and qualifiers ("Norwegian Bokmål", "Māori",
 * "Serbian (Latin)", "Brazilian Portuguese"). Only what is clearly not an English name fails: a
 * language code or tag ("de", "pt-BR", "zh_Hant", "EN"), or a native name that differs from the
 * language's English name ("Deutsch", "Español", "日本語"). What the harness cannot tell (a name
 * in neither list) is a warning, never a failure.
 */

/** English names of languages (ISO 639-1's English names and common alternates), lowercase, without diacritics. */
const ENGLISH_NAMES = new Set([
  'abkhazian', 'afar', 'afrikaans', 'akan', 'albanian', 'amharic', 'arabic', 'aragonese', 'armenian', 'assamese', 'avaric',
  'avestan', 'aymara', 'azerbaijani', 'bambara', 'bashkir', 'basque', 'belarusian', 'bengali', 'bangla', 'bislama', 'bosnian',
  'breton', 'bulgarian', 'burmese', 'catalan', 'valencian', 'chamorro', 'chechen', 'chichewa', 'chinese', 'mandarin', 'cantonese',
  'church slavonic', 'chuvash', 'cornish', 'corsican', 'cree', 'croatian', 'czech', 'danish', 'divehi', 'dhivehi', 'maldivian',
  'dutch', 'flemish', 'dzongkha', 'english', 'esperanto', 'estonian', 'ewe', 'faroese', 'fijian', 'filipino', 'tagalog',
  'finnish', 'french', 'fulah', 'fula', 'galician', 'ganda', 'luganda', 'georgian', 'german', 'greek', 'kalaallisut',
  'greenlandic', 'guarani', 'gujarati', 'haitian', 'haitian creole', 'hausa', 'hebrew', 'herero', 'hindi', 'hiri motu',
  'hungarian', 'icelandic', 'ido', 'igbo', 'indonesian', 'interlingua', 'interlingue', 'inuktitut', 'inupiaq', 'irish',
  'italian', 'japanese', 'javanese', 'kannada', 'kanuri', 'kashmiri', 'kazakh', 'khmer', 'central khmer', 'kikuyu', 'kinyarwanda',
  'kirghiz', 'kyrgyz', 'komi', 'kongo', 'korean', 'kuanyama', 'kurdish', 'lao', 'latin', 'latvian', 'limburgish', 'lingala',
  'lithuanian', 'luba-katanga', 'luxembourgish', 'macedonian', 'malagasy', 'malay', 'malayalam', 'maltese', 'manx', 'maori',
  'marathi', 'marshallese', 'mongolian', 'nauru', 'navajo', 'ndonga', 'nepali', 'north ndebele', 'northern sami', 'norwegian',
  'bokmal', 'nynorsk', 'occitan', 'ojibwa', 'oriya', 'odia', 'oromo', 'ossetian', 'pali', 'pashto', 'persian', 'farsi',
  'polish', 'portuguese', 'punjabi', 'panjabi', 'quechua', 'romanian', 'moldavian', 'romansh', 'rundi', 'kirundi', 'russian',
  'samoan', 'sango', 'sanskrit', 'sardinian', 'scottish gaelic', 'gaelic', 'serbian', 'shona', 'sindhi', 'sinhala', 'sinhalese',
  'slovak', 'slovenian', 'slovene', 'somali', 'south ndebele', 'southern sotho', 'sesotho', 'spanish', 'castilian', 'sundanese',
  'swahili', 'swati', 'swazi', 'swedish', 'tahitian', 'tajik', 'tamil', 'tatar', 'telugu', 'thai', 'tibetan', 'tigrinya',
  'tonga', 'tongan', 'tsonga', 'tswana', 'turkish', 'turkmen', 'twi', 'uighur', 'uyghur', 'ukrainian', 'urdu', 'uzbek',
  'venda', 'vietnamese', 'volapuk', 'walloon', 'welsh', 'western frisian', 'frisian', 'wolof', 'xhosa', 'sichuan yi', 'yiddish',
  'yoruba', 'zhuang', 'zulu', 'hawaiian', 'cherokee', 'hmong', 'klingon', 'sign language', 'american sign language',
]);

/**
 * Native names (endonyms) that differ from the language's English name, lowercase, without
 * diacritics where the script has them: each is clearly not the English name of its language.
 */
const NATIVE_NAMES: ReadonlyMap<string, string> = new Map([
  ['deutsch', 'German'], ['francais', 'French'], ['espanol', 'Spanish'], ['italiano', 'Italian'], ['portugues', 'Portuguese'],
  ['nederlands', 'Dutch'], ['polski', 'Polish'], ['svenska', 'Swedish'], ['norsk', 'Norwegian'], ['dansk', 'Danish'],
  ['suomi', 'Finnish'], ['turkce', 'Turkish'], ['magyar', 'Hungarian'], ['cestina', 'Czech'], ['slovencina', 'Slovak'],
  ['romana', 'Romanian'], ['hrvatski', 'Croatian'], ['srpski', 'Serbian'], ['slovenscina', 'Slovenian'], ['eesti', 'Estonian'],
  ['latviesu', 'Latvian'], ['lietuviu', 'Lithuanian'], ['islenska', 'Icelandic'], ['gaeilge', 'Irish'], ['cymraeg', 'Welsh'],
  ['euskara', 'Basque'], ['galego', 'Galician'], ['catala', 'Catalan'], ['bahasa indonesia', 'Indonesian'], ['bahasa melayu', 'Malay'],
  ['tieng viet', 'Vietnamese'], ['kiswahili', 'Swahili'], ['afaan oromoo', 'Oromo'], ['русский', 'Russian'], ['українська', 'Ukrainian'],
  ['беларуская', 'Belarusian'], ['български', 'Bulgarian'], ['српски', 'Serbian'], ['македонски', 'Macedonian'], ['ελληνικα', 'Greek'],
  ['עברית', 'Hebrew'], ['العربية', 'Arabic'], ['فارسی', 'Persian'], ['اردو', 'Urdu'], ['हिन्दी', 'Hindi'], ['বাংলা', 'Bengali'],
  ['தமிழ்', 'Tamil'], ['తెలుగు', 'Telugu'], ['ไทย', 'Thai'], ['日本語', 'Japanese'], ['中文', 'Chinese'], ['汉语', 'Chinese'],
  ['漢語', 'Chinese'], ['普通话', 'Chinese'], ['한국어', 'Korean'], ['조선말', 'Korean'], ['ქართული', 'Georgian'], ['հայերեն', 'Armenian'],
  ['español', 'Spanish'],
]);

/** A language code or tag: lowercase ISO 639 ("de", "deu"), two or three capitals ("EN"), or a tag with subtags ("pt-BR", "zh_Hant"). */
const CODE_OR_TAG = /^(?:[a-z]{2,3}|[A-Z]{2,3}|[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})+)$/;

const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

export type LanguageVerdict =
  | { kind: 'english' }
  | { kind: 'not-english'; why: string }
  | { kind: 'unknown'; why: string };

export function judgeLanguageName(value: unknown): LanguageVerdict {
  if (typeof value !== 'string' || value.trim() === '') return { kind: 'not-english', why: `${JSON.stringify(value)} is not a non-empty string` };
  const text = value.trim();
  const p = plain(text);
  if (ENGLISH_NAMES.has(p)) return { kind: 'english' };
  if (CODE_OR_TAG.test(text)) return { kind: 'not-english', why: `${JSON.stringify(text)} is a language code or tag, not a name` };
  const native = NATIVE_NAMES.get(p) ?? NATIVE_NAMES.get(text.toLowerCase());
  if (native !== undefined) return { kind: 'not-english', why: `${JSON.stringify(text)} is the native name of ${native}, not its English name` };
  // A qualified name ("Brazilian Portuguese", "Serbian (Latin)", "Norwegian Bokmål"): an English name among its words.
  const words = p.replace(/[()[\],]/g, ' ').split(' ').filter(Boolean);
  for (let n = 1; n <= 3; n++) {
    for (let i = 0; i + n <= words.length; i++) if (ENGLISH_NAMES.has(words.slice(i, i + n).join(' '))) return { kind: 'english' };
  }
  return { kind: 'unknown', why: `${JSON.stringify(text)} is in neither the harness's list of English language names nor its list of native names` };
}
