// The built-in taxonomy and its hand-written lexicons. Each topic has a one-line scope (documented in
// docs/topics-and-keywords.md), seed words and phrases (matched on Porter stems, so "games",
// "gaming" and "gamer" share entries where the stem agrees), and emoji cues. Hashtags are split into
// words first (#worldcup → world cup) and count one and a half times.

export interface TopicDef {
  scope: string;
  /** single words, lowercase; a two-word phrase is written with `_` ("ice_cream") and counts only as
   *  the pair, as in `strong` */
  terms: string;
  /** strong cues: count double (unambiguous names, jargon); a two-word name is written with `_`
   *  ("world_cup") and counts only as the pair, since its words alone are common ("world", "cup") */
  strong?: string;
  emoji?: string;
}

const TOPIC_DEFS: Record<string, TopicDef> = {
  technology: {
    scope: 'Gadgets, software, apps, internet, AI, social platforms, cybersecurity, crypto tech',
    terms: `tech technology software app apps update upgrade device gadget smartphone phone laptop computer pc
      tablet internet wifi online website browser download install code coding programming developer server
      cloud data digital startup algorithm robot robotics chip processor battery charger bluetooth screen
      keyboard cyber hack hacker password privacy bug glitch feature version launch users platform
      headphones earbuds smartwatch apple`,
    strong: `iphone android ios ipad macbook windows linux google microsoft samsung chatgpt openai ai
      artificial_intelligence machine_learning blockchain javascript python github tesla spacex 5g vr
      metaverse nvidia intel amd elon musk twitter facebook instagram tiktok youtube`,
    emoji: '💻📱🤖🖥️⌨️🔋',
  },
  science: {
    scope: 'Research, space, physics, biology, climate science, medicine research, discoveries',
    terms: `science scientist research researcher study experiment lab laboratory discovery theory physics
      chemistry biology biologist astronomy space planet galaxy universe star telescope satellite orbit
      rocket moon mars earth climate species evolution gene genetic dna cell molecule atom quantum fossil
      dinosaur ocean geology vaccine virus evidence data journal peer`,
    strong: 'nasa astronaut astrophysics neuroscience scientific cern hubble webb',
    emoji: '🔬🧪🔭🧬🚀🪐',
  },
  gaming: {
    scope: 'Video games, consoles, esports, streaming gameplay, tabletop and mobile games',
    terms: `game games gamer gaming play played playing player console controller level boss quest loot
      multiplayer online stream streamer twitch esports tournament rank ranked patch dlc mod mods fps rpg
      mmo speedrun achievement character skin server lobby`,
    strong: `playstation ps4 ps5 xbox nintendo nintendo_switch steam fortnite minecraft roblox valorant overwatch
      pokemon zelda mario halo cod warzone gta fifa apex_legends elden_ring dota csgo genshin
      gameplay`,
    emoji: '🎮🕹️👾',
  },
  music: {
    scope: 'Songs, albums, artists, concerts, playlists, genres, music industry',
    terms: `music song songs album albums track single lyrics singer sing singing sang band concert tour gig
      festival playlist radio dj rap rapper hip_hop rock pop jazz country guitar piano drum drums bass
      beat producer studio mixtape ep vinyl spotify soundtrack musician choir melody chorus verse listen
      listening stage`,
    strong: 'kpop bts blackpink beyonce taylor_swift drake kanye grammy grammys billboard nowplaying',
    emoji: '🎵🎶🎤🎧🎸🎹🥁🎷🎺🎻',
  },
  film_tv: {
    scope: 'Movies, TV shows, series, streaming services, trailers, actors in their roles, video content',
    terms: `movie movies film films cinema theater theatre trailer series show episode episodes season
      finale premiere sequel prequel actor actress director cast scene plot character characters
      documentary sitcom drama comedy horror thriller anime animation netflix hulu hbo disney marvel dc
      tv television watch watching watched binge screen`,
    strong: `oscars oscar emmys emmy hollywood bollywood starwars kenobi avengers spiderman batman
      superman pixar imdb primevideo`,
    emoji: '🎬🍿🎥📺🎞️',
  },
  entertainment: {
    scope: 'Celebrities, pop culture, influencers, award shows, gossip, memes, viral trends',
    terms: `celebrity celebrities celeb famous fame star stars fan fans fandom gossip rumor influencer viral
      trend trending meme memes award awards red_carpet paparazzi tabloid reality idol icon superstar
      scandal premiere interview podcast`,
    strong: 'kardashian kardashians kanye rihanna bieber selena_gomez met_gala vmas bbnaija',
    emoji: '⭐🌟✨📸',
  },
  sports: {
    scope: 'Professional and amateur sports, teams, matches, leagues, athletes, scores, transfers',
    terms: `sport sports team teams match game season league cup championship tournament final finals
      playoff playoffs score scored goal goals draw coach player players athlete innings
      stadium fans football soccer basketball baseball hockey tennis golf cricket rugby boxing ufc mma
      wrestling racing f1 formula olympics medal quarterback touchdown dunk pitch inning referee
      transfer striker midfielder defender keeper kickoff`,
    strong: `nfl nba mlb nhl fifa uefa epl premier_league la_liga laliga bundesliga serie_a champions_league
      ucl wimbledon superbowl super_bowl world_cup worldcup arsenal chelsea liverpool man_united
      manchester_united barcelona madrid juventus psg lakers celtics warriors yankees patriots cowboys
      packers ravens messi ronaldo lebron steph_curry`,
    emoji: '⚽🏀🏈⚾🎾🏐🏉🏒🏏⛳🥊🏆🏅🥇',
  },
  fashion: {
    scope: 'Clothing, style, outfits, shoes, accessories, designers, fashion weeks, streetwear',
    terms: `fashion style stylish outfit outfits clothes clothing dress dresses shirt tshirt jeans jacket
      coat hoodie sweater skirt suit shoes sneakers boots heels bag handbag purse accessories jewelry
      necklace earrings ring designer brand wear wearing wore runway model collection streetwear
      vintage thrift wardrobe trend`,
    strong: `ootd gucci prada chanel dior vuitton louis_vuitton versace balenciaga zara h&m nike adidas yeezy
      vogue fashionweek rolex wristwatch`,
    emoji: '👗👠👟👜👔👕👖🧥🕶️💍',
  },
  beauty: {
    scope: 'Makeup, skincare, hair, nails, cosmetics, fragrances, grooming',
    terms: `beauty makeup skincare skin cosmetics lipstick lip gloss mascara eyeliner eyeshadow foundation
      concealer blush contour serum moisturizer cleanser sunscreen spf acne hair haircut hairstyle salon
      nails manicure pedicure perfume fragrance lashes brows glow routine tutorial`,
    strong: 'sephora ulta fenty maybelline loreal glossier mua grwm',
    emoji: '💄💅💋🧴💇',
  },
  food_drink: {
    scope: 'Cooking, recipes, restaurants, food delivery, drinks, coffee, wine, beer, diets as food',
    terms: `food foods eat eating ate meal meals dinner lunch breakfast brunch snack recipe recipes cook
      cooking cooked bake baking chef kitchen restaurant cafe menu dish delicious tasty yummy hungry
      pizza burger fries chicken steak pasta sushi tacos sandwich salad soup rice noodles bread cake pie
      cookies dessert chocolate ice_cream coffee tea latte matcha juice smoothie wine beer cocktail
      drink drinks drinking bar vegan vegetarian spicy flavor taste bbq grill`,
    strong: `foodie foodporn mcdonalds starbucks kfc subway dominos chipotle ubereats doordash grubhub
      nutella`,
    emoji: '🍕🍔🍟🌭🌮🌯🍣🍜🍝🍰🎂🍪🍩☕🍵🍷🍺🍻🥂🍸🍹🍳🥗🍗🥩🍦🍫',
  },
  travel: {
    scope: 'Trips, vacations, flights, hotels, destinations, airlines, tourism, commuting abroad',
    terms: `travel traveling travelling trip trips vacation holiday holidays flight flights airport airline
      plane hotel hotels resort beach island tour tourist tourism destination passport visa luggage
      baggage suitcase booking boarding cruise road_trip backpacking adventure explore abroad city
      sightseeing airbnb hostel train journey landed layover jetlag`,
    strong: `wanderlust delta_airlines ryanair easyjet emirates lufthansa expedia tripadvisor jetblue
      southwest_airlines airlines`,
    emoji: '✈️🏖️🏝️🗺️🧳🌍🌎🌏🏨🚢⛱️',
  },
  fitness_health: {
    scope: 'Exercise, gym, running, diets, weight, physical and mental health, illness, healthcare',
    terms: `fitness gym workout workouts exercise training train run running runner jog marathon yoga
      pilates cardio lift lifting weights squat muscle muscles abs protein diet calories weight health
      healthy sick illness disease doctor hospital nurse medicine medication pill therapy mental anxiety
      depression stress sleep insomnia pain injury surgery covid flu cold fever cancer diabetes heart
      vaccine hydration steps`,
    strong: 'crossfit keto fitfam bodybuilding physiotherapy selfcare wellness mentalhealth',
    emoji: '💪🏋️🏃🧘🩺💊🏥🤒🤧',
  },
  finance: {
    scope: 'Personal finance, money, banking, stocks, investing, crypto markets, prices, inflation',
    terms: `money finance financial bank banking loan loans mortgage credit debt savings save budget
      invest investing investment investor stock stocks market markets trading trader dividend
      portfolio fund funds crypto bitcoin ethereum coin token price prices inflation interest rate
      rates tax taxes salary income pay paid payment rent bills cash dollar dollars economy recession
      wealth rich broke insurance pension retirement`,
    strong: 'nasdaq dow_jones wallstreet wall_street s&p nft nfts btc eth paypal venmo federal_reserve',
    emoji: '💰💵💸💳📈📉🏦🪙',
  },
  business: {
    scope: 'Companies, entrepreneurship, startups, marketing, customer service, jobs and careers, retail',
    terms: `business businesses company companies startup entrepreneur entrepreneurs founder ceo
      management manager marketing brand brands sales sell selling customer customers client clients
      service product products launch revenue profit growth industry corporate office job jobs career
      hire hiring hired interview employee employees boss work working coworker meeting strategy
      partnership deal deals retail store shop shopping order delivery shipping refund`,
    strong: 'linkedin smallbusiness ecommerce b2b saas amazon walmart ikea',
    emoji: '💼📊🏢🤝',
  },
  politics: {
    scope: 'Government, elections, parties, policy, politicians, laws, geopolitics',
    terms: `politics political politician government election elections vote voting voter votes
      campaign president senator senate congress parliament minister prime_minister party democrat democrats
      republican republicans liberal conservative left right policy policies law laws bill court
      supreme_court justice legislation governor mayor war military sanctions protest protests rally
      immigration border tax reform administration debate`,
    strong: `trump biden obama clinton hillary gop brexit putin modi bjp congress dnc rnc potus maga
      whitehouse kremlin nato`,
    emoji: '🗳️🏛️',
  },
  news: {
    scope: 'Breaking news, current events, disasters, crime, accidents, social issues and causes',
    terms: `news breaking_news report reported reports headline announced killed death shooting
      police arrest arrested crime murder victim attack fire flood earthquake storm hurricane accident
      crash emergency disaster rescue rights racism equality justice protest activist climate_change
      refugees poverty homeless abuse violence safety community charity donate awareness`,
    strong: 'blm metoo breakingnews cnn bbc reuters fox nytimes',
    emoji: '📰🚨🗞️',
  },
  education: {
    scope: 'School, university, studying, exams, teachers, courses, learning, student life',
    terms: `school schools student students teacher teachers class classes classroom college university
      uni campus study studying exam exams test homework assignment essay lecture professor course
      courses degree graduate graduation grades semester tuition scholarship learn learning lesson
      education educational teach teaching library thesis research kids`,
    strong: 'phd gpa sat edtech highschool freshman sophomore',
    emoji: '📚🎓✏️📝🏫',
  },
  family_parenting: {
    scope: 'Parents, children, babies, pregnancy, family life, siblings, grandparents',
    terms: `family families mom mum mother dad father parent parents parenting baby babies kid kids child
      children toddler son daughter sister brother sibling siblings grandma grandpa grandmother
      grandfather aunt uncle cousin pregnant pregnancy newborn birthday nephew niece husband wife`,
    strong: 'momlife dadlife motherhood fatherhood breastfeeding diaper daycare',
    emoji: '👶🍼👪👨‍👩‍👧🤰',
  },
  relationships: {
    scope: 'Dating, love, friendship, breakups, marriage, crushes',
    terms: `love boyfriend girlfriend bf gf partner crush date dating relationship relationships marriage
      married wedding engaged engagement divorce breakup ex friend friends friendship bestie bff kiss
      romance romantic valentine couple single heartbreak cheating loyal`,
    strong: 'tinder bumble hinge soulmate',
    emoji: '❤️💕💖💘💔💑💏💍',
  },
  pets_animals: {
    scope: 'Pets, dogs, cats, wildlife, animal welfare, vets',
    terms: `pet pets dog dogs puppy puppies cat cats kitten kittens animal animals vet bird birds horse
      fish bunny rabbit hamster wildlife zoo paw paws adopt adoption rescue shelter breed leash groomer
      groomed`,
    strong: 'doggo pupper catsoftwitter dogsoftwitter',
    emoji: '🐶🐕🐱🐈🐾🐰🐹🐦🐴🦁🐯🐻',
  },
  automotive: {
    scope: 'Cars, motorcycles, driving, dealerships, EVs, car maintenance, traffic',
    terms: `car cars vehicle vehicles truck trucks suv driving drive driver drivers engine motor
      motorcycle bike dealership mechanic tire tires oil brake brakes gas fuel electric ev hybrid
      horsepower speed highway traffic parking garage license`,
    strong: 'toyota honda ford bmw audi mercedes porsche ferrari lamborghini chevy nissan hyundai',
    emoji: '🚗🏎️🚙🚘🏍️⛽🚕',
  },
  arts_culture: {
    scope: 'Visual arts, books, literature, photography, theatre, museums, design, heritage, religion',
    terms: `art arts artist artists painting paint drawing draw sketch illustration gallery museum
      exhibition sculpture photography photographer photo photos design designer book books novel
      author writer writing poetry poem poet literature reading read library culture cultural history
      heritage theatre theater opera ballet dance dancer craft crafts church faith prayer god bible
      psalm`,
    strong: 'bookstagram booktok artwork fanart manga comics',
    emoji: '🎨🖌️🖼️📖📷🎭🩰',
  },
  daily_life: {
    scope: 'Personal updates, routines, moods, weekends, home life, everyday observations',
    terms: `today tonight morning night evening afternoon weekend monday tuesday wednesday thursday friday
      saturday sunday day life bed sleep sleeping woke wake nap tired exhausted bored mood home house
      room chores laundry shower commute work shift week vibes feeling feel`,
    strong: 'goodmorning tgif mondaymotivation mood',
    emoji: '😴☀️🌙🛏️🏠',
  },
  hobbies: {
    scope: 'Crafts, DIY, gardening, outdoors, collecting, fishing, camping, board games, home projects',
    terms: `hobby hobbies diy craft crafts crafting knitting sewing crochet gardening garden plants plant
      flowers camping hiking hike fishing hunting outdoors collecting collection lego puzzle chess
      woodworking pottery baking photography cosplay anime drawing`,
    strong: 'plantsofinstagram houseplants',
    emoji: '🪴🌱🌻🧶🏕️🎣🧩♟️',
  },
};

// looked up through a Map: callers' labels and words are keys here, and a plain object would
// answer "constructor" or "__proto__" with a prototype member
export const TOPICS: ReadonlyMap<string, TopicDef> = new Map(Object.entries(TOPIC_DEFS));
