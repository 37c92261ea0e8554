/**
 * Curated word and fact lists the embedded dataset is built from. Kept apart from the assembly code so
 * that corrections are easy to review.
 */

/**
 * Languages of the vocabulary drills, in the column order of {@link VOCABULARY} rows.
 *
 * @example
 * ```ts
 * import { LANGUAGES } from "./dataset-lists.js";
 *
 * LANGUAGES[0].name; // "Spanish"
 * ```
 */
export const LANGUAGES = [
  { code: "es", name: "Spanish" },
  { code: "fr", name: "French" },
  { code: "de", name: "German" },
  { code: "nl", name: "Dutch" },
] as const;

/**
 * One vocabulary row: English, then Spanish, French, German and Dutch.
 *
 * @example
 * ```ts
 * import type { VocabularyRow } from "./dataset-lists.js";
 *
 * const row: VocabularyRow = ["dog", "el perro", "le chien", "der Hund", "de hond"];
 * ```
 */
export type VocabularyRow = readonly [en: string, es: string, fr: string, de: string, nl: string];

/**
 * A vocabulary theme with its rows and the level it suits.
 *
 * @example
 * ```ts
 * import { VOCABULARY, type VocabularyTheme } from "./dataset-lists.js";
 *
 * const animals: VocabularyTheme | undefined = VOCABULARY.find((t) => t.key === "animals");
 * animals?.rows.length; // 16
 * ```
 */
export interface VocabularyTheme {
  readonly key: string;
  readonly title: string;
  readonly level: "beginner" | "intermediate" | "business";
  readonly rows: readonly VocabularyRow[];
}

/**
 * Everyday vocabulary by theme (nouns with their article).
 *
 * @example
 * ```ts
 * import { VOCABULARY } from "./dataset-lists.js";
 *
 * VOCABULARY.map((t) => t.title); // ["animals", "colours", "food and drink", …]
 * ```
 */
export const VOCABULARY: readonly VocabularyTheme[] = [
  {
    key: "animals",
    title: "animals",
    level: "beginner",
    rows: [
      ["dog", "el perro", "le chien", "der Hund", "de hond"],
      ["cat", "el gato", "le chat", "die Katze", "de kat"],
      ["horse", "el caballo", "le cheval", "das Pferd", "het paard"],
      ["cow", "la vaca", "la vache", "die Kuh", "de koe"],
      ["pig", "el cerdo", "le cochon", "das Schwein", "het varken"],
      ["sheep", "la oveja", "le mouton", "das Schaf", "het schaap"],
      ["bird", "el pájaro", "l'oiseau", "der Vogel", "de vogel"],
      ["fish", "el pez", "le poisson", "der Fisch", "de vis"],
      ["mouse", "el ratón", "la souris", "die Maus", "de muis"],
      ["rabbit", "el conejo", "le lapin", "das Kaninchen", "het konijn"],
      ["chicken", "la gallina", "la poule", "das Huhn", "de kip"],
      ["duck", "el pato", "le canard", "die Ente", "de eend"],
      ["bear", "el oso", "l'ours", "der Bär", "de beer"],
      ["wolf", "el lobo", "le loup", "der Wolf", "de wolf"],
      ["fox", "el zorro", "le renard", "der Fuchs", "de vos"],
      ["snake", "la serpiente", "le serpent", "die Schlange", "de slang"],
    ],
  },
  {
    key: "colours",
    title: "colours",
    level: "beginner",
    rows: [
      ["red", "rojo", "rouge", "rot", "rood"],
      ["blue", "azul", "bleu", "blau", "blauw"],
      ["green", "verde", "vert", "grün", "groen"],
      ["yellow", "amarillo", "jaune", "gelb", "geel"],
      ["black", "negro", "noir", "schwarz", "zwart"],
      ["white", "blanco", "blanc", "weiß", "wit"],
      ["orange", "naranja", "orange", "orange", "oranje"],
      ["purple", "morado", "violet", "lila", "paars"],
      ["pink", "rosa", "rose", "rosa", "roze"],
      ["brown", "marrón", "marron", "braun", "bruin"],
      ["grey", "gris", "gris", "grau", "grijs"],
    ],
  },
  {
    key: "food",
    title: "food and drink",
    level: "beginner",
    rows: [
      ["bread", "el pan", "le pain", "das Brot", "het brood"],
      ["cheese", "el queso", "le fromage", "der Käse", "de kaas"],
      ["apple", "la manzana", "la pomme", "der Apfel", "de appel"],
      ["water", "el agua", "l'eau", "das Wasser", "het water"],
      ["milk", "la leche", "le lait", "die Milch", "de melk"],
      ["egg", "el huevo", "l'œuf", "das Ei", "het ei"],
      ["meat", "la carne", "la viande", "das Fleisch", "het vlees"],
      ["rice", "el arroz", "le riz", "der Reis", "de rijst"],
      ["soup", "la sopa", "la soupe", "die Suppe", "de soep"],
      ["butter", "la mantequilla", "le beurre", "die Butter", "de boter"],
      ["sugar", "el azúcar", "le sucre", "der Zucker", "de suiker"],
      ["salt", "la sal", "le sel", "das Salz", "het zout"],
      ["potato", "la patata", "la pomme de terre", "die Kartoffel", "de aardappel"],
      ["tomato", "el tomate", "la tomate", "die Tomate", "de tomaat"],
      ["coffee", "el café", "le café", "der Kaffee", "de koffie"],
      ["tea", "el té", "le thé", "der Tee", "de thee"],
    ],
  },
  {
    key: "family",
    title: "family",
    level: "beginner",
    rows: [
      ["mother", "la madre", "la mère", "die Mutter", "de moeder"],
      ["father", "el padre", "le père", "der Vater", "de vader"],
      ["sister", "la hermana", "la sœur", "die Schwester", "de zus"],
      ["brother", "el hermano", "le frère", "der Bruder", "de broer"],
      ["son", "el hijo", "le fils", "der Sohn", "de zoon"],
      ["daughter", "la hija", "la fille", "die Tochter", "de dochter"],
      ["grandmother", "la abuela", "la grand-mère", "die Großmutter", "de grootmoeder"],
      ["grandfather", "el abuelo", "le grand-père", "der Großvater", "de grootvader"],
      ["aunt", "la tía", "la tante", "die Tante", "de tante"],
      ["uncle", "el tío", "l'oncle", "der Onkel", "de oom"],
      ["wife", "la esposa", "l'épouse", "die Ehefrau", "de echtgenote"],
      ["husband", "el esposo", "le mari", "der Ehemann", "de echtgenoot"],
      ["child", "el niño", "l'enfant", "das Kind", "het kind"],
    ],
  },
  {
    key: "body",
    title: "the body",
    level: "beginner",
    rows: [
      ["head", "la cabeza", "la tête", "der Kopf", "het hoofd"],
      ["hand", "la mano", "la main", "die Hand", "de hand"],
      ["foot", "el pie", "le pied", "der Fuß", "de voet"],
      ["eye", "el ojo", "l'œil", "das Auge", "het oog"],
      ["ear", "la oreja", "l'oreille", "das Ohr", "het oor"],
      ["nose", "la nariz", "le nez", "die Nase", "de neus"],
      ["mouth", "la boca", "la bouche", "der Mund", "de mond"],
      ["arm", "el brazo", "le bras", "der Arm", "de arm"],
      ["leg", "la pierna", "la jambe", "das Bein", "het been"],
      ["heart", "el corazón", "le cœur", "das Herz", "het hart"],
      ["hair", "el pelo", "les cheveux", "das Haar", "het haar"],
      ["tooth", "el diente", "la dent", "der Zahn", "de tand"],
      ["back", "la espalda", "le dos", "der Rücken", "de rug"],
      ["knee", "la rodilla", "le genou", "das Knie", "de knie"],
    ],
  },
  {
    key: "numbers",
    title: "numbers",
    level: "beginner",
    rows: [
      ["one", "uno", "un", "eins", "een"],
      ["two", "dos", "deux", "zwei", "twee"],
      ["three", "tres", "trois", "drei", "drie"],
      ["four", "cuatro", "quatre", "vier", "vier"],
      ["five", "cinco", "cinq", "fünf", "vijf"],
      ["six", "seis", "six", "sechs", "zes"],
      ["seven", "siete", "sept", "sieben", "zeven"],
      ["eight", "ocho", "huit", "acht", "acht"],
      ["nine", "nueve", "neuf", "neun", "negen"],
      ["ten", "diez", "dix", "zehn", "tien"],
      ["eleven", "once", "onze", "elf", "elf"],
      ["twelve", "doce", "douze", "zwölf", "twaalf"],
      ["twenty", "veinte", "vingt", "zwanzig", "twintig"],
      ["hundred", "cien", "cent", "hundert", "honderd"],
    ],
  },
  {
    key: "time",
    title: "days and time",
    level: "beginner",
    rows: [
      ["Monday", "el lunes", "lundi", "der Montag", "maandag"],
      ["Tuesday", "el martes", "mardi", "der Dienstag", "dinsdag"],
      ["Wednesday", "el miércoles", "mercredi", "der Mittwoch", "woensdag"],
      ["Thursday", "el jueves", "jeudi", "der Donnerstag", "donderdag"],
      ["Friday", "el viernes", "vendredi", "der Freitag", "vrijdag"],
      ["Saturday", "el sábado", "samedi", "der Samstag", "zaterdag"],
      ["Sunday", "el domingo", "dimanche", "der Sonntag", "zondag"],
      ["morning", "la mañana", "le matin", "der Morgen", "de ochtend"],
      ["night", "la noche", "la nuit", "die Nacht", "de nacht"],
      ["week", "la semana", "la semaine", "die Woche", "de week"],
      ["month", "el mes", "le mois", "der Monat", "de maand"],
      ["year", "el año", "l'année", "das Jahr", "het jaar"],
      ["today", "hoy", "aujourd'hui", "heute", "vandaag"],
      ["tomorrow", "mañana", "demain", "morgen", "morgen"],
    ],
  },
  {
    key: "house",
    title: "house and home",
    level: "intermediate",
    rows: [
      ["house", "la casa", "la maison", "das Haus", "het huis"],
      ["door", "la puerta", "la porte", "die Tür", "de deur"],
      ["window", "la ventana", "la fenêtre", "das Fenster", "het raam"],
      ["kitchen", "la cocina", "la cuisine", "die Küche", "de keuken"],
      ["bedroom", "el dormitorio", "la chambre", "das Schlafzimmer", "de slaapkamer"],
      ["table", "la mesa", "la table", "der Tisch", "de tafel"],
      ["chair", "la silla", "la chaise", "der Stuhl", "de stoel"],
      ["bed", "la cama", "le lit", "das Bett", "het bed"],
      ["roof", "el tejado", "le toit", "das Dach", "het dak"],
      ["wall", "la pared", "le mur", "die Wand", "de muur"],
      ["floor", "el suelo", "le sol", "der Boden", "de vloer"],
      ["garden", "el jardín", "le jardin", "der Garten", "de tuin"],
      ["key", "la llave", "la clé", "der Schlüssel", "de sleutel"],
      ["stairs", "la escalera", "l'escalier", "die Treppe", "de trap"],
    ],
  },
  {
    key: "weather",
    title: "weather",
    level: "intermediate",
    rows: [
      ["sun", "el sol", "le soleil", "die Sonne", "de zon"],
      ["rain", "la lluvia", "la pluie", "der Regen", "de regen"],
      ["snow", "la nieve", "la neige", "der Schnee", "de sneeuw"],
      ["wind", "el viento", "le vent", "der Wind", "de wind"],
      ["cloud", "la nube", "le nuage", "die Wolke", "de wolk"],
      ["storm", "la tormenta", "la tempête", "der Sturm", "de storm"],
      ["fog", "la niebla", "le brouillard", "der Nebel", "de mist"],
      ["ice", "el hielo", "la glace", "das Eis", "het ijs"],
      ["heat", "el calor", "la chaleur", "die Hitze", "de hitte"],
      ["cold", "el frío", "le froid", "die Kälte", "de kou"],
      ["sky", "el cielo", "le ciel", "der Himmel", "de lucht"],
      ["rainbow", "el arcoíris", "l'arc-en-ciel", "der Regenbogen", "de regenboog"],
    ],
  },
  {
    key: "verbs",
    title: "common verbs",
    level: "intermediate",
    rows: [
      ["to eat", "comer", "manger", "essen", "eten"],
      ["to drink", "beber", "boire", "trinken", "drinken"],
      ["to sleep", "dormir", "dormir", "schlafen", "slapen"],
      ["to speak", "hablar", "parler", "sprechen", "spreken"],
      ["to read", "leer", "lire", "lesen", "lezen"],
      ["to write", "escribir", "écrire", "schreiben", "schrijven"],
      ["to run", "correr", "courir", "laufen", "rennen"],
      ["to sing", "cantar", "chanter", "singen", "zingen"],
      ["to see", "ver", "voir", "sehen", "zien"],
      ["to hear", "oír", "entendre", "hören", "horen"],
      ["to go", "ir", "aller", "gehen", "gaan"],
      ["to come", "venir", "venir", "kommen", "komen"],
      ["to give", "dar", "donner", "geben", "geven"],
      ["to take", "tomar", "prendre", "nehmen", "nemen"],
      ["to buy", "comprar", "acheter", "kaufen", "kopen"],
      ["to learn", "aprender", "apprendre", "lernen", "leren"],
    ],
  },
  {
    key: "travel",
    title: "travel and the city",
    level: "intermediate",
    rows: [
      ["station", "la estación", "la gare", "der Bahnhof", "het station"],
      ["airport", "el aeropuerto", "l'aéroport", "der Flughafen", "het vliegveld"],
      ["train", "el tren", "le train", "der Zug", "de trein"],
      ["bus", "el autobús", "le bus", "der Bus", "de bus"],
      ["car", "el coche", "la voiture", "das Auto", "de auto"],
      ["bicycle", "la bicicleta", "le vélo", "das Fahrrad", "de fiets"],
      ["street", "la calle", "la rue", "die Straße", "de straat"],
      ["bridge", "el puente", "le pont", "die Brücke", "de brug"],
      ["ticket", "el billete", "le billet", "die Fahrkarte", "het kaartje"],
      ["map", "el mapa", "la carte", "die Landkarte", "de kaart"],
      ["hotel", "el hotel", "l'hôtel", "das Hotel", "het hotel"],
      ["shop", "la tienda", "le magasin", "das Geschäft", "de winkel"],
      ["church", "la iglesia", "l'église", "die Kirche", "de kerk"],
      ["hospital", "el hospital", "l'hôpital", "das Krankenhaus", "het ziekenhuis"],
    ],
  },
  {
    key: "clothes",
    title: "clothes",
    level: "intermediate",
    rows: [
      ["shirt", "la camisa", "la chemise", "das Hemd", "het overhemd"],
      ["trousers", "los pantalones", "le pantalon", "die Hose", "de broek"],
      ["dress", "el vestido", "la robe", "das Kleid", "de jurk"],
      ["skirt", "la falda", "la jupe", "der Rock", "de rok"],
      ["shoe", "el zapato", "la chaussure", "der Schuh", "de schoen"],
      ["hat", "el sombrero", "le chapeau", "der Hut", "de hoed"],
      ["coat", "el abrigo", "le manteau", "der Mantel", "de jas"],
      ["sock", "el calcetín", "la chaussette", "die Socke", "de sok"],
      ["glove", "el guante", "le gant", "der Handschuh", "de handschoen"],
      ["scarf", "la bufanda", "l'écharpe", "der Schal", "de sjaal"],
      ["belt", "el cinturón", "la ceinture", "der Gürtel", "de riem"],
      ["jacket", "la chaqueta", "la veste", "die Jacke", "het jasje"],
    ],
  },
  {
    key: "adjectives",
    title: "describing words",
    level: "intermediate",
    rows: [
      ["big", "grande", "grand", "groß", "groot"],
      ["small", "pequeño", "petit", "klein", "klein"],
      ["good", "bueno", "bon", "gut", "goed"],
      ["bad", "malo", "mauvais", "schlecht", "slecht"],
      ["new", "nuevo", "nouveau", "neu", "nieuw"],
      ["old", "viejo", "vieux", "alt", "oud"],
      ["hot", "caliente", "chaud", "heiß", "heet"],
      ["cold", "frío", "froid", "kalt", "koud"],
      ["fast", "rápido", "rapide", "schnell", "snel"],
      ["slow", "lento", "lent", "langsam", "langzaam"],
      ["happy", "feliz", "heureux", "glücklich", "blij"],
      ["sad", "triste", "triste", "traurig", "verdrietig"],
      ["beautiful", "hermoso", "beau", "schön", "mooi"],
      ["easy", "fácil", "facile", "einfach", "makkelijk"],
      ["difficult", "difícil", "difficile", "schwierig", "moeilijk"],
    ],
  },
  {
    key: "business",
    title: "business",
    level: "business",
    rows: [
      ["meeting", "la reunión", "la réunion", "die Besprechung", "de vergadering"],
      ["contract", "el contrato", "le contrat", "der Vertrag", "het contract"],
      ["invoice", "la factura", "la facture", "die Rechnung", "de factuur"],
      ["company", "la empresa", "l'entreprise", "das Unternehmen", "het bedrijf"],
      ["employee", "el empleado", "l'employé", "der Mitarbeiter", "de werknemer"],
      ["salary", "el salario", "le salaire", "das Gehalt", "het salaris"],
      ["office", "la oficina", "le bureau", "das Büro", "het kantoor"],
      ["customer", "el cliente", "le client", "der Kunde", "de klant"],
      ["price", "el precio", "le prix", "der Preis", "de prijs"],
      ["market", "el mercado", "le marché", "der Markt", "de markt"],
      ["sale", "la venta", "la vente", "der Verkauf", "de verkoop"],
      ["deadline", "la fecha límite", "la date limite", "die Frist", "de deadline"],
    ],
  },
];

/**
 * Countries with their capital, grouped by continent.
 *
 * @example
 * ```ts
 * import { COUNTRIES } from "./dataset-lists.js";
 *
 * COUNTRIES.Europe?.[0]; // ["France", "Paris"]
 * ```
 */
export const COUNTRIES: Readonly<Record<string, readonly (readonly [country: string, capital: string])[]>> = {
  Europe: [
    ["France", "Paris"],
    ["Germany", "Berlin"],
    ["Spain", "Madrid"],
    ["Italy", "Rome"],
    ["Portugal", "Lisbon"],
    ["Netherlands", "Amsterdam"],
    ["Belgium", "Brussels"],
    ["Austria", "Vienna"],
    ["Switzerland", "Bern"],
    ["Poland", "Warsaw"],
    ["Sweden", "Stockholm"],
    ["Norway", "Oslo"],
    ["Denmark", "Copenhagen"],
    ["Finland", "Helsinki"],
    ["Ireland", "Dublin"],
    ["Greece", "Athens"],
    ["Hungary", "Budapest"],
    ["Czechia", "Prague"],
    ["Romania", "Bucharest"],
    ["Bulgaria", "Sofia"],
    ["Croatia", "Zagreb"],
    ["Ukraine", "Kyiv"],
    ["Iceland", "Reykjavík"],
    ["Estonia", "Tallinn"],
    ["Latvia", "Riga"],
    ["Lithuania", "Vilnius"],
    ["Slovakia", "Bratislava"],
    ["Slovenia", "Ljubljana"],
    ["Serbia", "Belgrade"],
    ["United Kingdom", "London"],
  ],
  Asia: [
    ["Japan", "Tokyo"],
    ["China", "Beijing"],
    ["India", "New Delhi"],
    ["South Korea", "Seoul"],
    ["Thailand", "Bangkok"],
    ["Vietnam", "Hanoi"],
    ["Indonesia", "Jakarta"],
    ["Philippines", "Manila"],
    ["Malaysia", "Kuala Lumpur"],
    ["Pakistan", "Islamabad"],
    ["Bangladesh", "Dhaka"],
    ["Nepal", "Kathmandu"],
    ["Mongolia", "Ulaanbaatar"],
    ["Iran", "Tehran"],
    ["Iraq", "Baghdad"],
    ["Saudi Arabia", "Riyadh"],
    ["Turkey", "Ankara"],
    ["Afghanistan", "Kabul"],
    ["Kazakhstan", "Astana"],
    ["Uzbekistan", "Tashkent"],
    ["Jordan", "Amman"],
    ["Syria", "Damascus"],
    ["Qatar", "Doha"],
    ["Cambodia", "Phnom Penh"],
    ["Laos", "Vientiane"],
  ],
  Africa: [
    ["Egypt", "Cairo"],
    ["Kenya", "Nairobi"],
    ["Nigeria", "Abuja"],
    ["Ethiopia", "Addis Ababa"],
    ["Ghana", "Accra"],
    ["Morocco", "Rabat"],
    ["Algeria", "Algiers"],
    ["Tunisia", "Tunis"],
    ["Senegal", "Dakar"],
    ["Tanzania", "Dodoma"],
    ["Uganda", "Kampala"],
    ["Zimbabwe", "Harare"],
    ["Zambia", "Lusaka"],
    ["Angola", "Luanda"],
    ["Mali", "Bamako"],
    ["Sudan", "Khartoum"],
    ["Rwanda", "Kigali"],
    ["Madagascar", "Antananarivo"],
    ["Mozambique", "Maputo"],
    ["Namibia", "Windhoek"],
    ["Botswana", "Gaborone"],
  ],
  Americas: [
    ["United States", "Washington, D.C."],
    ["Canada", "Ottawa"],
    ["Mexico", "Mexico City"],
    ["Brazil", "Brasília"],
    ["Argentina", "Buenos Aires"],
    ["Chile", "Santiago"],
    ["Peru", "Lima"],
    ["Colombia", "Bogotá"],
    ["Venezuela", "Caracas"],
    ["Ecuador", "Quito"],
    ["Uruguay", "Montevideo"],
    ["Paraguay", "Asunción"],
    ["Cuba", "Havana"],
    ["Jamaica", "Kingston"],
    ["Panama", "Panama City"],
    ["Costa Rica", "San José"],
    ["Guatemala", "Guatemala City"],
    ["Honduras", "Tegucigalpa"],
    ["Nicaragua", "Managua"],
    ["Dominican Republic", "Santo Domingo"],
  ],
  Oceania: [
    ["Australia", "Canberra"],
    ["New Zealand", "Wellington"],
    ["Fiji", "Suva"],
    ["Papua New Guinea", "Port Moresby"],
    ["Samoa", "Apia"],
    ["Tonga", "Nukuʻalofa"],
    ["Vanuatu", "Port Vila"],
    ["Solomon Islands", "Honiara"],
  ],
};

/**
 * Major rivers: continent and the sea or ocean they flow into.
 *
 * @example
 * ```ts
 * import { RIVERS } from "./dataset-lists.js";
 *
 * RIVERS[0]; // ["Nile", "Africa", "Mediterranean Sea"]
 * ```
 */
export const RIVERS: readonly (readonly [river: string, continent: string, mouth: string])[] = [
  ["Nile", "Africa", "Mediterranean Sea"],
  ["Amazon", "South America", "Atlantic Ocean"],
  ["Yangtze", "Asia", "East China Sea"],
  ["Mississippi", "North America", "Gulf of Mexico"],
  ["Danube", "Europe", "Black Sea"],
  ["Rhine", "Europe", "North Sea"],
  ["Volga", "Europe", "Caspian Sea"],
  ["Ganges", "Asia", "Bay of Bengal"],
  ["Mekong", "Asia", "South China Sea"],
  ["Congo", "Africa", "Atlantic Ocean"],
  ["Niger", "Africa", "Gulf of Guinea"],
  ["Thames", "Europe", "North Sea"],
  ["Seine", "Europe", "English Channel"],
  ["Elbe", "Europe", "North Sea"],
  ["Po", "Europe", "Adriatic Sea"],
  ["Indus", "Asia", "Arabian Sea"],
  ["Yellow River", "Asia", "Bohai Sea"],
  ["Orinoco", "South America", "Atlantic Ocean"],
  ["Rio Grande", "North America", "Gulf of Mexico"],
  ["Yukon", "North America", "Bering Sea"],
  ["Mackenzie", "North America", "Beaufort Sea"],
  ["Dnieper", "Europe", "Black Sea"],
  ["Vistula", "Europe", "Baltic Sea"],
  ["Oder", "Europe", "Baltic Sea"],
];

/**
 * Well-known mountains and the range they belong to.
 *
 * @example
 * ```ts
 * import { MOUNTAINS } from "./dataset-lists.js";
 *
 * MOUNTAINS[0]; // ["Mount Everest", "Himalayas"]
 * ```
 */
export const MOUNTAINS: readonly (readonly [mountain: string, range: string])[] = [
  ["Mount Everest", "Himalayas"],
  ["K2", "Karakoram"],
  ["Aconcagua", "Andes"],
  ["Mont Blanc", "Alps"],
  ["Matterhorn", "Alps"],
  ["Zugspitze", "Alps"],
  ["Mount Elbrus", "Caucasus"],
  ["Denali", "Alaska Range"],
  ["Mount Whitney", "Sierra Nevada"],
  ["Ben Nevis", "Grampian Mountains"],
  ["Mount Olympus", "Olympus massif"],
  ["Mulhacén", "Sierra Nevada"],
];

/**
 * Highest mountain of each continent.
 *
 * @example
 * ```ts
 * import { HIGHEST_PEAKS } from "./dataset-lists.js";
 *
 * HIGHEST_PEAKS[0]; // ["Asia", "Mount Everest"]
 * ```
 */
export const HIGHEST_PEAKS: readonly (readonly [continent: string, peak: string])[] = [
  ["Asia", "Mount Everest"],
  ["South America", "Aconcagua"],
  ["North America", "Denali"],
  ["Africa", "Kilimanjaro"],
  ["Europe", "Mount Elbrus"],
  ["Antarctica", "Mount Vinson"],
  ["Australia", "Mount Kosciuszko"],
];

/**
 * Chemical elements in order of atomic number: symbol and English name.
 *
 * @example
 * ```ts
 * import { ELEMENTS } from "./dataset-lists.js";
 *
 * ELEMENTS[25]; // ["Fe", "Iron"] (atomic number 26)
 * ```
 */
export const ELEMENTS: readonly (readonly [symbol: string, name: string])[] = [
  ["H", "Hydrogen"],
  ["He", "Helium"],
  ["Li", "Lithium"],
  ["Be", "Beryllium"],
  ["B", "Boron"],
  ["C", "Carbon"],
  ["N", "Nitrogen"],
  ["O", "Oxygen"],
  ["F", "Fluorine"],
  ["Ne", "Neon"],
  ["Na", "Sodium"],
  ["Mg", "Magnesium"],
  ["Al", "Aluminium"],
  ["Si", "Silicon"],
  ["P", "Phosphorus"],
  ["S", "Sulfur"],
  ["Cl", "Chlorine"],
  ["Ar", "Argon"],
  ["K", "Potassium"],
  ["Ca", "Calcium"],
  ["Sc", "Scandium"],
  ["Ti", "Titanium"],
  ["V", "Vanadium"],
  ["Cr", "Chromium"],
  ["Mn", "Manganese"],
  ["Fe", "Iron"],
  ["Co", "Cobalt"],
  ["Ni", "Nickel"],
  ["Cu", "Copper"],
  ["Zn", "Zinc"],
  ["Ga", "Gallium"],
  ["Ge", "Germanium"],
  ["As", "Arsenic"],
  ["Se", "Selenium"],
  ["Br", "Bromine"],
  ["Kr", "Krypton"],
  ["Rb", "Rubidium"],
  ["Sr", "Strontium"],
  ["Y", "Yttrium"],
  ["Zr", "Zirconium"],
  ["Nb", "Niobium"],
  ["Mo", "Molybdenum"],
  ["Tc", "Technetium"],
  ["Ru", "Ruthenium"],
  ["Rh", "Rhodium"],
  ["Pd", "Palladium"],
  ["Ag", "Silver"],
  ["Cd", "Cadmium"],
  ["In", "Indium"],
  ["Sn", "Tin"],
  ["Sb", "Antimony"],
  ["Te", "Tellurium"],
  ["I", "Iodine"],
  ["Xe", "Xenon"],
  ["Cs", "Caesium"],
  ["Ba", "Barium"],
  ["La", "Lanthanum"],
  ["Ce", "Cerium"],
  ["Pr", "Praseodymium"],
  ["Nd", "Neodymium"],
  ["Pm", "Promethium"],
  ["Sm", "Samarium"],
  ["Eu", "Europium"],
  ["Gd", "Gadolinium"],
  ["Tb", "Terbium"],
  ["Dy", "Dysprosium"],
  ["Ho", "Holmium"],
  ["Er", "Erbium"],
  ["Tm", "Thulium"],
  ["Yb", "Ytterbium"],
  ["Lu", "Lutetium"],
  ["Hf", "Hafnium"],
  ["Ta", "Tantalum"],
  ["W", "Tungsten"],
  ["Re", "Rhenium"],
  ["Os", "Osmium"],
  ["Ir", "Iridium"],
  ["Pt", "Platinum"],
  ["Au", "Gold"],
  ["Hg", "Mercury"],
  ["Tl", "Thallium"],
  ["Pb", "Lead"],
  ["Bi", "Bismuth"],
  ["Po", "Polonium"],
  ["At", "Astatine"],
  ["Rn", "Radon"],
  ["Fr", "Francium"],
  ["Ra", "Radium"],
  ["Ac", "Actinium"],
  ["Th", "Thorium"],
  ["Pa", "Protactinium"],
  ["U", "Uranium"],
  ["Np", "Neptunium"],
  ["Pu", "Plutonium"],
  ["Am", "Americium"],
  ["Cm", "Curium"],
  ["Bk", "Berkelium"],
  ["Cf", "Californium"],
  ["Es", "Einsteinium"],
  ["Fm", "Fermium"],
  ["Md", "Mendelevium"],
  ["No", "Nobelium"],
  ["Lr", "Lawrencium"],
  ["Rf", "Rutherfordium"],
  ["Db", "Dubnium"],
  ["Sg", "Seaborgium"],
  ["Bh", "Bohrium"],
  ["Hs", "Hassium"],
  ["Mt", "Meitnerium"],
  ["Ds", "Darmstadtium"],
  ["Rg", "Roentgenium"],
  ["Cn", "Copernicium"],
  ["Nh", "Nihonium"],
  ["Fl", "Flerovium"],
  ["Mc", "Moscovium"],
  ["Lv", "Livermorium"],
  ["Ts", "Tennessine"],
  ["Og", "Oganesson"],
];

/**
 * Planets in order from the Sun, with their kind.
 *
 * @example
 * ```ts
 * import { PLANETS } from "./dataset-lists.js";
 *
 * PLANETS[2]; // ["Earth", "rocky planet"]
 * ```
 */
export const PLANETS: readonly (readonly [planet: string, kind: string])[] = [
  ["Mercury", "rocky planet"],
  ["Venus", "rocky planet"],
  ["Earth", "rocky planet"],
  ["Mars", "rocky planet"],
  ["Jupiter", "gas giant"],
  ["Saturn", "gas giant"],
  ["Uranus", "ice giant"],
  ["Neptune", "ice giant"],
];

/**
 * Moons of the Solar System and the body they orbit.
 *
 * @example
 * ```ts
 * import { MOONS } from "./dataset-lists.js";
 *
 * MOONS[0]; // ["the Moon", "Earth"]
 * ```
 */
export const MOONS: readonly (readonly [moon: string, planet: string])[] = [
  ["the Moon", "Earth"],
  ["Phobos", "Mars"],
  ["Deimos", "Mars"],
  ["Io", "Jupiter"],
  ["Europa", "Jupiter"],
  ["Ganymede", "Jupiter"],
  ["Callisto", "Jupiter"],
  ["Titan", "Saturn"],
  ["Enceladus", "Saturn"],
  ["Rhea", "Saturn"],
  ["Iapetus", "Saturn"],
  ["Mimas", "Saturn"],
  ["Titania", "Uranus"],
  ["Oberon", "Uranus"],
  ["Miranda", "Uranus"],
  ["Ariel", "Uranus"],
  ["Triton", "Neptune"],
  ["Charon", "Pluto"],
];

/**
 * SI units: quantity, unit name and symbol.
 *
 * @example
 * ```ts
 * import { SI_UNITS } from "./dataset-lists.js";
 *
 * SI_UNITS[0]; // ["length", "metre", "m"]
 * ```
 */
export const SI_UNITS: readonly (readonly [quantity: string, unit: string, symbol: string])[] = [
  ["length", "metre", "m"],
  ["mass", "kilogram", "kg"],
  ["time", "second", "s"],
  ["electric current", "ampere", "A"],
  ["temperature", "kelvin", "K"],
  ["amount of substance", "mole", "mol"],
  ["luminous intensity", "candela", "cd"],
  ["force", "newton", "N"],
  ["energy", "joule", "J"],
  ["power", "watt", "W"],
  ["pressure", "pascal", "Pa"],
  ["frequency", "hertz", "Hz"],
  ["electric charge", "coulomb", "C"],
  ["voltage", "volt", "V"],
  ["electrical resistance", "ohm", "Ω"],
  ["capacitance", "farad", "F"],
  ["magnetic flux", "weber", "Wb"],
  ["inductance", "henry", "H"],
  ["magnetic flux density", "tesla", "T"],
  ["radioactivity", "becquerel", "Bq"],
  ["illuminance", "lux", "lx"],
  ["luminous flux", "lumen", "lm"],
];

/**
 * Everyday chemical compounds and their formulas.
 *
 * @example
 * ```ts
 * import { COMPOUNDS } from "./dataset-lists.js";
 *
 * COMPOUNDS[0]; // ["water", "H2O"]
 * ```
 */
export const COMPOUNDS: readonly (readonly [compound: string, formula: string])[] = [
  ["water", "H2O"],
  ["carbon dioxide", "CO2"],
  ["table salt", "NaCl"],
  ["methane", "CH4"],
  ["ammonia", "NH3"],
  ["glucose", "C6H12O6"],
  ["ethanol", "C2H5OH"],
  ["sulfuric acid", "H2SO4"],
  ["hydrochloric acid", "HCl"],
  ["baking soda", "NaHCO3"],
  ["limestone", "CaCO3"],
  ["ozone", "O3"],
  ["hydrogen peroxide", "H2O2"],
  ["carbon monoxide", "CO"],
  ["nitrous oxide", "N2O"],
];

/**
 * Historical events with their year, grouped by theme.
 *
 * @example
 * ```ts
 * import { HISTORY } from "./dataset-lists.js";
 *
 * HISTORY[0]?.events[0]; // ["Fall of the Western Roman Empire", 476]
 * ```
 */
export const HISTORY: readonly {
  readonly key: string;
  readonly title: string;
  readonly events: readonly (readonly [event: string, year: number])[];
}[] = [
  {
    key: "medieval",
    title: "Medieval and early modern Europe",
    events: [
      ["Fall of the Western Roman Empire", 476],
      ["Coronation of Charlemagne as emperor", 800],
      ["Battle of Hastings", 1066],
      ["Sealing of Magna Carta", 1215],
      ["Fall of Constantinople", 1453],
      ["Columbus reaches the Americas", 1492],
      ["Luther posts his Ninety-five Theses", 1517],
      ["Defeat of the Spanish Armada", 1588],
      ["Peace of Westphalia", 1648],
      ["Glorious Revolution in England", 1688],
    ],
  },
  {
    key: "revolutions",
    title: "Age of revolutions",
    events: [
      ["United States Declaration of Independence", 1776],
      ["Storming of the Bastille", 1789],
      ["Battle of Trafalgar", 1805],
      ["Battle of Waterloo", 1815],
      ["Slavery Abolition Act in the British Empire", 1833],
      ["Revolutions across Europe", 1848],
      ["Proclamation of the Kingdom of Italy", 1861],
      ["Unification of Germany", 1871],
      ["Russian October Revolution", 1917],
    ],
  },
  {
    key: "twentieth",
    title: "The twentieth century",
    events: [
      ["Sinking of the Titanic", 1912],
      ["Start of the First World War", 1914],
      ["Armistice ending the First World War", 1918],
      ["Treaty of Versailles", 1919],
      ["Wall Street Crash", 1929],
      ["Start of the Second World War", 1939],
      ["D-Day landings in Normandy", 1944],
      ["Founding of the United Nations", 1945],
      ["Independence of India", 1947],
      ["Founding of the People's Republic of China", 1949],
      ["Building of the Berlin Wall", 1961],
      ["Fall of the Berlin Wall", 1989],
      ["Dissolution of the Soviet Union", 1991],
      ["Nelson Mandela elected president of South Africa", 1994],
    ],
  },
  {
    key: "europe",
    title: "European integration",
    events: [
      ["Treaty of Paris creates the European Coal and Steel Community", 1951],
      ["Treaty of Rome signed", 1957],
      ["First direct elections to the European Parliament", 1979],
      ["Schengen Agreement signed", 1985],
      ["Maastricht Treaty signed", 1992],
      ["Euro notes and coins introduced", 2002],
      ["Ten countries join the European Union", 2004],
      ["Treaty of Lisbon signed", 2007],
    ],
  },
  {
    key: "science",
    title: "Milestones of science and technology",
    events: [
      ["Copernicus publishes On the Revolutions", 1543],
      ["Galileo publishes The Starry Messenger", 1610],
      ["Newton publishes the Principia", 1687],
      ["Jenner's smallpox vaccination", 1796],
      ["Darwin publishes On the Origin of Species", 1859],
      ["Mendeleev's periodic table", 1869],
      ["Bell patents the telephone", 1876],
      ["Röntgen discovers X-rays", 1895],
      ["First powered flight by the Wright brothers", 1903],
      ["Einstein's special relativity", 1905],
      ["Fleming discovers penicillin", 1928],
      ["Structure of DNA described", 1953],
      ["Launch of Sputnik 1", 1957],
      ["First crewed Moon landing", 1969],
    ],
  },
];

/**
 * Fractions and their value as a percentage.
 *
 * @example
 * ```ts
 * import { FRACTIONS } from "./dataset-lists.js";
 *
 * FRACTIONS[0]; // ["1/2", "50%"]
 * ```
 */
export const FRACTIONS: readonly (readonly [fraction: string, percentage: string])[] = [
  ["1/2", "50%"],
  ["1/4", "25%"],
  ["3/4", "75%"],
  ["1/5", "20%"],
  ["2/5", "40%"],
  ["3/5", "60%"],
  ["4/5", "80%"],
  ["1/8", "12.5%"],
  ["3/8", "37.5%"],
  ["5/8", "62.5%"],
  ["7/8", "87.5%"],
  ["1/10", "10%"],
  ["1/20", "5%"],
  ["1/25", "4%"],
  ["1/50", "2%"],
  ["1/100", "1%"],
];

/**
 * Words used to give generated drills varied names (see `generateLargeDataset`).
 *
 * @example
 * ```ts
 * import { NAME_WORDS } from "./dataset-lists.js";
 *
 * NAME_WORDS.length > 20; // true
 * ```
 */
export const NAME_WORDS: readonly string[] = [
  "essential",
  "everyday",
  "quick",
  "advanced",
  "basic",
  "review",
  "challenge",
  "warm-up",
  "exam",
  "revision",
  "starter",
  "practice",
  "mastery",
  "sprint",
  "weekly",
  "daily",
  "bonus",
  "core",
  "extended",
  "classic",
  "focus",
  "booster",
  "checkpoint",
  "marathon",
];
