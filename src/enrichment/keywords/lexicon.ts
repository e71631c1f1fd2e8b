// Closed-class words and verb forms for the light part-of-speech heuristic that cuts candidate
// phrases. A candidate keyphrase never contains a stopword and never starts or ends with a verb
// form listed here. The lists are hand-written: function words of English, social-media filler,
// and the verbs most frequent in both social posts and expository prose, in all their forms.

const words = (s: string): string[] => s.trim().split(/\s+/);

/** function words and filler: phrase boundaries */
export const STOPWORDS: ReadonlySet<string> = new Set(
  words(`
a about above across after afterwards again against all almost alone along already also although always am
among amongst an and another any anybody anyhow anyone anything anyway anyways anywhere are aren't around as at
b back be became because become becomes becoming been before beforehand behind being below beside besides
between beyond both but by c can can't cannot could couldn't d did didn't do does doesn't doing don't done down
due during e each eg e.g either else elsewhere enough etc even ever every everybody everyone everything
everywhere except f few for former formerly from further furthermore g get gets getting got gotten h had hadn't
has hasn't have haven't having he he'd he'll he's hence her here here's hereby herein hers herself him himself
his how however i i'd i'll i'm i've ie i.e if in indeed into is isn't it it's its itself j just k l
latter latterly least less let let's like likely m many may maybe me meanwhile might mine more moreover most
mostly much must mustn't my myself n namely neither never nevertheless next no nobody none nor not nothing now
nowhere o of off often on once one's only onto or other others otherwise ought our ours ourselves out over
own p per perhaps please q quite r rather really s same several shall shan't she she'd she'll she's should
shouldn't since so some somebody somehow someone something sometime sometimes somewhat somewhere still such
t than that that's the their theirs them themselves then thence there there's thereafter thereby therefore
therein thereupon these they they'd they'll they're they've this those though through throughout thru thus to
together too toward towards u under unless until up upon us v very via w was wasn't we we'd we'll we're we've
well were weren't what what's whatever when whence whenever where where's whereas whereby wherein whereupon
wherever whether which while whither who who's whoever whole whom whose why will with within without won't
would wouldn't x y yet you you'd you'll you're you've your yours yourself yourselves z
ain't could've would've should've might've must've it'd it'll that'll there'll who'll what'll that'd
who'd there'd how's when's why's who've what've ya'll
im ive id dont doesnt didnt cant wont isnt arent wasnt aint ur u r ya yall y'all gonna wanna gotta lol lmao
lmfao rofl omg omfg smh tbh imo imho idk idc btw fyi irl ikr tho thx ty pls plz yeah yea yep yes nope nah ok
okay oh ah ahh aww haha hahaha hehe hmm hm um uh wow yay ugh oops hey hi hello bye rt via amp gt lt
new old good bad great best better big small many much lot lots little able various certain different
particular specific general new several such similar same first second third last previous following
usually also often always already recently currently simply actually basically literally totally far
`),
);

/** adjectives among the stopwords that open names ("New York", "Great Britain", "Good Morning
 *  America", "Old Trafford", "Big Ben", "First Republic"): written with a capital before a word
 *  capitalized inside its sentence, such a word is part of the name */
export const NAME_OPENERS: ReadonlySet<string> = new Set(words('new old good great big little first last'));

/** simple past forms of irregular verbs that are not also nouns or adjectives in the usual reading
 *  (news reports in the past tense: "Hurricane Gilbert swept …" must not read "hurricane gilbert
 *  swept" as one phrase); forms that also name things ("set", "ground", "bound", "cost", "rose",
 *  "wound", "fed", "lit", "lent", "slew", "spun") or describe them ("woke") are left out */
const IRREGULAR_PAST = `
arose awoke bled blew broke caught chose clung crept drank drove ate fled flung flew forbade forgot
forgave froze knelt rode rang sang sank shook shone shrank slid slung sprang stole strode struck swore
swam swung swept taught tore threw wore wove wept fought hid slept sped dug meant leapt overtook
undertook withdrew foresaw mistook stank stung strove
`;

/** verb forms (not nouns in the usual reading): never the head or the start of a candidate phrase */
export const VERBS: ReadonlySet<string> = new Set(
  words(`${IRREGULAR_PAST}
is are was were be been being am do does did done doing have has had having
make makes made making take takes took taken taking give gives gave given giving go goes went gone going
come comes came coming get gets got getting see sees saw seen seeing know knows knew known knowing
think thinks thought thinking say says said saying tell tells told telling find finds found finding
use uses used using show shows showed shown showing provide provides provided providing
present presents presented presenting propose proposes proposed proposing describe describes described
describing discuss discusses discussed discussing consider considers considered considering obtain obtains
obtained obtaining develop develops developed developing apply applies applied applying allow allows allowed
allowing require requires required requiring include includes included including involve involves
involved involving achieve achieves achieved achieving perform performs performed performing improve
improves improved improving increase increases increased increasing reduce reduces reduced reducing
introduce introduces introduced introducing investigate investigates investigated investigating
studied examine examines examined examining analyze analyzes analyzed analyse analyses
analysed demonstrate demonstrates demonstrated demonstrating indicate indicates indicated indicating
suggest suggests suggested suggesting compare compares compared comparing determine determines determined
determining evaluate evaluates evaluated evaluating explain explains explained explaining address
addresses addressed addressing focus focuses focused focusing base bases based lead leads led leading
enable enables enabled enabling supporting offer offers offered offering
become becomes became contain contains contained containing consist consists consisted consisting
represent represents represented representing describe derive derives derived deriving employ employs
employed employing exist exists existed existing remain remains remained remaining seem seems seemed
appear appears appeared appearing need needs needed want wants wanted wanting try tries tried trying
helps helped let lets put puts keep keeps kept keeping feel feels felt feeling look looks looked
looking call called calling ask asks asked asking worked seems become start starts
started starting begin begins began begun beginning run runs ran running turn turns turned turning
move moves moved moving live lives lived believe believes believed bring brings brought bringing
happen happens happened happening write writes wrote written writing sit sits sat stand stands stood
lose loses lost losing pay pays paid paying meet meets met continue continues continued
learn learns learned learnt changed understand understands understood
follow follows followed stop stops stopped create creates created creating speak speaks spoke spoken
read reads allow spend spends spent grow grows grew grown open opens opened walk walks walked win wins
won offer remember remembers remembered love loves loved loving consider appear buy buys bought buying
wait waits waited serve serves served die dies died send sends sent expect expects expected build builds
built stay stays stayed fall falls fell fallen cut cuts reach reaches reached kill kills killed raise
raises raised pass passes passed sell sells sold decide decides decided returned hope
hopes hoped hoping watched watching hate hates hated enjoy enjoys enjoyed thank thanks
thanked obtain solve solves solved solving generate generates generated generating define defines defined
defining estimate estimates estimated estimating calculate calculates calculated calculating
measured designed implement implements implemented implementing
tested verify verified verifies establish established establishes identify identifies
identified identifying associate associated relate relates related relating correspond corresponds
corresponding result resulted resulting occur occurs occurred occurring produce produces produced producing
reveal reveals revealed exhibit exhibits exhibited yield yields yielded outperform outperforms
outperformed adopt adopts adopted formulate formulated formulates extend extends extended modify
modified modifies ensure ensures ensured assume assumes assumed assuming compute computes computed
construct constructs constructed concern concerns concerned dealt discuss illustrate
illustrates illustrated prove proves proved proven combine combines combined utilize utilizes utilized
utilizing describe depend depends depended tend tends tended pose poses posed play plays played
argue argues argued claim claims claimed aim aims aimed seek seeks sought gain gains gained draw draws drew
drawn hold holds held carry carries carried enhance enhances enhanced emphasize emphasizes emphasized
highlight highlights highlighted explore explores explored exploring investigate predict predicts predicted
predicting recall recalls recalled tackle tackles tackled overcome overcomes incorporate incorporates
incorporated employ facilitate facilitates facilitated manage manages managed discover discovers discovered
attempt attempts attempted prevent prevents prevented accept accepts accepted permit permits permitted
regard regards regarded concluded conclude concludes refer refers referred belong belongs lie lies
`),
);

/** verbs of VERBS that are everyday nouns after a determiner or a possessive ("my run", "the show",
 *  "a win", "our stay") or as the head of a compound there ("the morning run", "a long walk", "the
 *  bus stop"); read as nouns only in that context (keywords/index.ts nounByContext) */
export const NOUN_VERBS: ReadonlySet<string> = new Set(
  words(`
run runs walk walks win wins play plays show shows call calls move moves start read cut fall stay wait
build builds pay buy love meet stop stops offer offers
`),
);

/** determiners and possessives after which a word of NOUN_VERBS is a noun ("that" and "her" are left
 *  out: "apps that run", "watched her walk") */
export const NOUN_MARKERS: ReadonlySet<string> = new Set(
  words('a an the my your his its our their this these those every each another'),
);

/** handles that stand for any account in data sets whose authors hid the real ones ("@user" in
 *  SemEval / TweetEval, "@USER", "@username"; lowercase, without the "@"): no keyword and no topic
 *  cue, where the handle of a real account ("@nba", "@apple") is both; the tokenizer of keywords
 *  and topics (tokenize.ts) gives such a handle as a `placeholder` token */
export const PLACEHOLDER_HANDLES: ReadonlySet<string> = new Set(['user', 'username', 'users']);

/** words that stand in brackets for a removed one: GoEmotions' anonymized names and religions
 *  ("[NAME] is smiling"), and Reddit's removed comments ("[deleted]", "[removed]"); in brackets such a
 *  word is no word of the text (tokenize.ts gives it as a `placeholder` token, as it does the
 *  handles above) */
export const PLACEHOLDER_WORDS: ReadonlySet<string> = new Set(['name', 'religion', 'deleted', 'removed']);

/** evaluative or generic modifiers that are dropped from the start of a candidate phrase
 *  ("a novel efficient algorithm" → "algorithm") */
export const GENERIC_MODIFIERS: ReadonlySet<string> = new Set(
  words(`
simple efficient traditional conventional current novel important basic common large high multiple single
experimental standard existing possible main major key recent typical specific useful effective significant
powerful accurate complete practical suitable appropriate necessary fundamental potential overall entire
whole so-called well-known above-mentioned state-of-the-art real-world previous present proposed
several numerous additional further extensive detailed brief comprehensive general particular certain
successful interesting promising unique major minor low small huge little long short higher lower larger
smaller greater better best worse worst easy difficult hard good bad great excellent nice amazing awesome
true false wrong right full empty free various same similar different other such own whole total
`),
);

/** nouns too vague to be a keyword on their own (kept inside phrases: "design method") */
export const GENERIC_NOUNS: ReadonlySet<string> = new Set(
  words(`
approach approaches method methods technique techniques scheme schemes paper papers problem problems result
results way ways use uses case cases type types kind kinds part parts number numbers order level levels form
forms amount amounts value values aspect aspects example examples issue issues work study studies research
area areas field fields term terms basis purpose purposes idea ideas fact facts article articles task tasks
thing things stuff time times day days year years people person someone everyone lot lots bit side end point
points question questions answer answers reason reasons situation place places today tomorrow yesterday
week weeks month months tonight morning night
`),
);

/** words with an adjective/adverb suffix that are usually nouns (kept as phrase heads) */
export const SUFFIX_NOUNS: ReadonlySet<string> = new Set(
  words(`
signal signals interval intervals potential potentials material materials proposal proposals manual
terminal terminals approval arrival trial trials journal journals animal animals capital hospital total
totals individual individuals professional professionals official officials criminal criminals
principal rival rivals mental portal portals festival festivals channel tutorial tutorials editorial
logic traffic music topic topics graphic graphics arithmetic electronics mechanic mechanics clinic
clinics physics statistics economics dynamics electronics mathematics ethics politics republic public
objective objectives initiative initiatives alternative alternatives derivative derivatives incentive
incentives executive executives detective representative representatives relative relatives motive
perspective perspectives archive archives directive narrative narratives native natives collective
family supply assembly apply reply ally rally belly bully jelly july italy sally holly lily
fly butterfly monopoly anomaly anomalies january february
`),
);

/** days of the week and months ("may" is a stopword): in news a day follows the place or the event
 *  it dates ("in the Dominican Republic Sunday"), and a post dates a plan ("raising the rent
 *  starting in March"), so such a name that ends a run of words is no part of a phrase unless one
 *  of NAMED_DAY_MODIFIERS names it ("Black Friday", "Taco Tuesday", "Dry January") */
export const DATE_NAMES: ReadonlySet<string> = new Set(
  words(`monday tuesday wednesday thursday friday saturday sunday
january february march april june july august september october november december`),
);
/** days named from now: like a day of the week, such a word that ends a run of words dates it ("a
 *  new phone today", "the game tonight"), and is part of a phrase only before a noun it qualifies
 *  ("tomorrow night"; a verb that is also a noun does not count: "the Today show" gives "show") */
export const RELATIVE_DAYS: ReadonlySet<string> = new Set(words('today tonight tomorrow yesterday'));
export const NAMED_DAY_MODIFIERS: ReadonlySet<string> = new Set(
  words(
    'black cyber super good ash palm easter holy bloody giving fat throwback taco motivation motivational wellness wine fun flashback selfie meatless transformation manic casual dry sober no-shave',
  ),
);
