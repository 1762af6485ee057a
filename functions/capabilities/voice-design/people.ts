/**
 * Prompts that ask to imitate a named real person are refused (blocked_generation). Two checks:
 * a list of widely known people (full names, and surnames distinctive enough to stand alone),
 * and, in English, an imitation phrase followed by a capitalised full name ("sounds like Jane
 * Doe", "in the voice of John Smith"). Fictional and generic characters pass ("like a pirate").
 */
const FULL_NAMES = [
  "barack obama", "michelle obama", "donald trump", "joe biden", "kamala harris", "hillary clinton", "bill clinton", "george bush", "george w bush",
  "ronald reagan", "john f kennedy", "john kennedy", "abraham lincoln", "winston churchill", "margaret thatcher", "boris johnson", "keir starmer",
  "rishi sunak", "angela merkel", "olaf scholz", "emmanuel macron", "vladimir putin", "volodymyr zelensky", "xi jinping", "narendra modi",
  "queen elizabeth", "king charles", "prince harry", "prince william", "princess diana", "pope francis", "dalai lama", "nelson mandela",
  "martin luther king", "mahatma gandhi", "greta thunberg", "morgan freeman", "tom hanks", "scarlett johansson", "meryl streep",
  "samuel l jackson", "samuel jackson", "arnold schwarzenegger", "christopher walken", "keanu reeves", "benedict cumberbatch", "emma watson",
  "leonardo dicaprio", "brad pitt", "angelina jolie", "tom cruise", "will smith", "denzel washington", "robert de niro", "al pacino",
  "jack nicholson", "anthony hopkins", "ian mckellen", "patrick stewart", "judi dench", "helen mirren", "james earl jones", "gilbert gottfried",
  "jim carrey", "robin williams", "matthew mcconaughey", "sean connery", "michael caine", "clint eastwood", "marilyn monroe", "audrey hepburn",
  "johnny depp", "kevin hart", "dwayne johnson", "ryan reynolds", "hugh jackman", "jennifer lawrence", "jennifer aniston",
  "nicole kidman", "cate blanchett", "sigourney weaver", "harrison ford", "mark hamill", "werner herzog", "gerard depardieu", "penelope cruz",
  "antonio banderas", "taylor swift", "beyonce", "beyoncé", "elvis presley", "michael jackson", "frank sinatra", "freddie mercury",
  "billie eilish", "ariana grande", "eminem", "snoop dogg", "kanye west", "rihanna", "lady gaga", "justin bieber", "ed sheeran",
  "bob dylan", "david bowie", "john lennon", "paul mccartney", "mick jagger", "dolly parton", "johnny cash", "shakira",
  "david attenborough", "oprah winfrey", "elon musk", "steve jobs", "bill gates", "mark zuckerberg", "jeff bezos", "stephen hawking",
  "gordon ramsay", "joe rogan", "mrbeast", "mr beast", "fred rogers", "mister rogers", "mr rogers", "bob ross", "neil degrasse tyson",
  "carl sagan", "albert einstein", "ellen degeneres", "jimmy fallon", "conan o'brien", "stephen colbert", "david letterman", "howard stern",
  "tucker carlson", "jordan peterson", "andrew tate", "kim kardashian", "paris hilton", "cristiano ronaldo", "lionel messi", "lebron james",
  "michael jordan", "serena williams", "roger federer", "shah rukh khan", "amitabh bachchan", "salman khan", "priyanka chopra",
];
/** Surnames that name one famous person on their own. */
const DISTINCT_SURNAMES = [
  "obama", "trump", "biden", "merkel", "macron", "putin", "zelensky", "churchill", "thatcher", "schwarzenegger", "attenborough", "dicaprio",
  "cumberbatch", "mckellen", "walken", "mcconaughey", "gottfried", "winfrey", "zuckerberg", "bezos", "hawking", "einstein", "sinatra",
  "presley", "kardashian", "degeneres", "bachchan", "modi", "mandela", "gandhi", "thunberg", "depardieu", "banderas",
];

const IMITATION = /\b(?:sounds?(?:\s+just|\s+exactly)?\s+like|voice\s+of|imitat\w*|impersonat\w*|mimic\w*|in\s+the\s+style\s+of|clone\s+of|as\s+if\s+(?:it\s+were|spoken\s+by)|spoken\s+by|narrated\s+by|read\s+by)\s+(?:the\s+)?(?:late\s+|actor\s+|actress\s+|singer\s+|president\s+|presenter\s+)?((?:[A-Z][\p{L}'’.-]+)(?:\s+[A-Z][\p{L}'’.-]+){1,3})/u;

const normalise = (s: string) =>
  ` ${s
    .toLocaleLowerCase("en")
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^a-z0-9' ]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()} `;

/** The person a prompt names, or null. */
export function namedPerson(prompt: string): string | null {
  const text = normalise(prompt);
  for (const name of FULL_NAMES) if (text.includes(` ${normalise(name).trim()} `)) return name;
  for (const surname of DISTINCT_SURNAMES) if (text.includes(` ${surname} `) || text.includes(` ${surname}'s `)) return surname;
  const m = prompt.match(IMITATION);
  return m ? m[1] : null;
}
