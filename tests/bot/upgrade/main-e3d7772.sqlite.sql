BEGIN TRANSACTION;
CREATE TABLE analyses (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    level       TEXT    NOT NULL,  -- the AI level that evaluated the moves (hard, expert)
    data        TEXT    NOT NULL,  -- JSON of scrabble_core.analysis.GameAnalysis.to_dict()
    created_at  REAL    NOT NULL
);
INSERT INTO "analyses" VALUES(1,'hard','{"level": "hard", "names": ["Alice", "Bob"], "moves": []}',1700000180.0);
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    at          REAL    NOT NULL,
    kind        TEXT    NOT NULL,  -- an engine EventKind, or a service event (created, joined, ...)
    seat        INTEGER,
    data        TEXT    NOT NULL   -- JSON
);
INSERT INTO "events" VALUES(1,1,1700000000.0,'created',0,'{"user_id": 11, "options": {"variant": "standard", "challenge_mode": "void", "turn_seconds": 0, "hints": 3, "ai_level": "expert", "rated": true}}');
INSERT INTO "events" VALUES(2,1,1700000000.0,'joined',1,'{"user_id": 12}');
INSERT INTO "events" VALUES(3,1,1700000000.0,'started',NULL,'{"first": "Alice"}');
INSERT INTO "events" VALUES(4,1,1700000000.0,'play',0,'{"kind": "play", "player": 0, "rack": "ABCEKTX", "move": "8H AB", "score": 8, "total": 8, "detail": "AB 8"}');
INSERT INTO "events" VALUES(5,1,1700000060.0,'play',1,'{"kind": "play", "player": 1, "rack": "AEGIRSV", "move": "H7 A.", "score": 2, "total": 2, "detail": "AA 2"}');
INSERT INTO "events" VALUES(6,1,1700000120.0,'play',0,'{"kind": "play", "player": 0, "rack": "CEEKNTX", "move": "H6 C..", "score": 5, "total": 13, "detail": "CAA 5"}');
INSERT INTO "events" VALUES(7,1,1700000180.0,'resign',1,'{"kind": "resign", "player": 1, "rack": "EGIRSTV", "move": "(resigned)", "score": 0, "total": 2, "detail": ""}');
INSERT INTO "events" VALUES(8,2,1700000180.0,'created',0,'{"user_id": 11, "options": {"size": 9, "komi": 7.5, "handicap": 0, "method": "area", "turn_seconds": 0, "ai_level": null, "opponent": 12, "creator_black": true}}');
INSERT INTO "events" VALUES(9,2,1700000180.0,'started',1,'{"user_id": 12}');
INSERT INTO "events" VALUES(10,2,1700000180.0,'play',0,'{"version": 2, "lines": ["Alice (Black) played E5."]}');
INSERT INTO "events" VALUES(11,2,1700000180.0,'play',1,'{"version": 3, "lines": ["Bob (White) played C3."]}');
INSERT INTO "events" VALUES(12,2,1700000180.0,'resign',1,'{"version": 4, "lines": ["Bob (White) resigned."]}');
INSERT INTO "events" VALUES(13,3,1700000180.0,'created',0,'{"user_id": 11, "options": {"variant": "standard", "challenge_mode": "void", "turn_seconds": 0, "hints": 3, "ai_level": "hard", "rated": true}}');
INSERT INTO "events" VALUES(14,3,1700000180.0,'started',NULL,'{"first": "Alice"}');
INSERT INTO "events" VALUES(15,3,1700000180.0,'play',0,'{"kind": "play", "player": 0, "rack": "ABCEKTX", "move": "8H AB", "score": 8, "total": 8, "detail": "AB 8"}');
INSERT INTO "events" VALUES(16,3,1700000180.0,'play',1,'{"kind": "play", "player": 1, "rack": "AEGIRSV", "move": "H7 A.", "score": 2, "total": 2, "detail": "AA 2"}');
INSERT INTO "events" VALUES(17,3,1700000180.0,'play',0,'{"kind": "play", "player": 0, "rack": "CEEKNTX", "move": "H6 C..", "score": 5, "total": 13, "detail": "CAA 5"}');
INSERT INTO "events" VALUES(18,3,1700000180.0,'play',1,'{"kind": "play", "player": 1, "rack": "EGIRSTV", "move": "H5 E...", "score": 6, "total": 8, "detail": "ECAA 6"}');
INSERT INTO "events" VALUES(19,4,1700000180.0,'created',0,'{"user_id": 11, "options": {"size": 9, "komi": 6.5, "handicap": 0, "method": "area", "turn_seconds": 0, "ai_level": null, "opponent": 12, "creator_black": true}}');
INSERT INTO "events" VALUES(20,4,1700000180.0,'started',1,'{"user_id": 12}');
INSERT INTO "events" VALUES(21,4,1700000180.0,'play',0,'{"version": 2, "lines": ["Alice (Black) played E5."]}');
INSERT INTO "events" VALUES(22,4,1700000180.0,'play',1,'{"version": 3, "lines": ["Bob (White) played D4."]}');
INSERT INTO "events" VALUES(23,4,1700000180.0,'play',0,'{"version": 4, "lines": ["Alice (Black) played F6."]}');
INSERT INTO "events" VALUES(24,5,1700000180.0,'created',0,'{"user_id": 13, "options": {"variant": "standard", "challenge_mode": "void", "turn_seconds": 0, "hints": 3, "ai_level": "expert", "rated": true}}');
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    creator_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    options     TEXT    NOT NULL,  -- JSON: variant, challenge_mode, turn_seconds, hints, ai_level
    seed        INTEGER NOT NULL,
    state       TEXT,              -- JSON of scrabble_core.game.Game.to_dict(); NULL in the lobby
    deadline    REAL,              -- when the current human turn runs out; NULL without a timer
    reminded    INTEGER NOT NULL DEFAULT 0,  -- 1 once the current turn's reminder was sent
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
, quarantined TEXT, kind TEXT NOT NULL DEFAULT 'scrabble' CHECK (kind IN ('scrabble', 'go')));
INSERT INTO "games" VALUES(1,1000,2000,11,'finished','{"variant": "standard", "challenge_mode": "void", "turn_seconds": 0, "hints": 3, "ai_level": "expert", "rated": true}',2,'{"schema": 2, "variant": {"name": "standard", "title": "Standard Scrabble (15x15, English)", "rack_size": 7, "bingo_bonus": 50, "exchange_min_bag": 7, "scoreless_rounds": 3, "board": {"start": "H8", "layout": "3W -- -- 2L -- -- -- 3W -- -- -- 2L -- -- 3W\n-- 2W -- -- -- 3L -- -- -- 3L -- -- -- 2W --\n-- -- 2W -- -- -- 2L -- 2L -- -- -- 2W -- --\n2L -- -- 2W -- -- -- 2L -- -- -- 2W -- -- 2L\n-- -- -- -- 2W -- -- -- -- -- 2W -- -- -- --\n-- 3L -- -- -- 3L -- -- -- 3L -- -- -- 3L --\n-- -- 2L -- -- -- 2L -- 2L -- -- -- 2L -- --\n3W -- -- 2L -- -- -- 2W -- -- -- 2L -- -- 3W\n-- -- 2L -- -- -- 2L -- 2L -- -- -- 2L -- --\n-- 3L -- -- -- 3L -- -- -- 3L -- -- -- 3L --\n-- -- -- -- 2W -- -- -- -- -- 2W -- -- -- --\n2L -- -- 2W -- -- -- 2L -- -- -- 2W -- -- 2L\n-- -- 2W -- -- -- 2L -- 2L -- -- -- 2W -- --\n-- 2W -- -- -- 3L -- -- -- 3L -- -- -- 2W --\n3W -- -- 2L -- -- -- 3W -- -- -- 2L -- -- 3W"}, "tiles": {"blanks": 2, "A": [9, 1], "B": [2, 3], "C": [2, 3], "D": [4, 2], "E": [12, 1], "F": [2, 4], "G": [3, 2], "H": [2, 4], "I": [9, 1], "J": [1, 8], "K": [1, 5], "L": [4, 1], "M": [2, 3], "N": [6, 1], "O": [8, 1], "P": [2, 3], "Q": [1, 10], "R": [6, 1], "S": [4, 1], "T": [6, 1], "U": [4, 1], "V": [2, 4], "W": [2, 4], "X": [1, 8], "Y": [2, 4], "Z": [1, 10]}}, "challenge_mode": "void", "board": ["...............", "...............", "...............", "...............", "...............", ".......C.......", ".......A.......", ".......AB......", "...............", "...............", "...............", "...............", "...............", "...............", "..............."], "bag": "ASOOARAADEDELCRBTRAI?JUNSEMWDIPIITIEGDRUEZMROISGTETEOHINENVAOW?UFFEYPNLIOYAUHONQLO", "players": [{"name": "Alice", "rack": "EEKLNTX", "score": 13, "resigned": false}, {"name": "Bob", "rack": "EGIRSTV", "score": 2, "resigned": true}], "current": 1, "scoreless": 0, "over": true, "history": [{"kind": "play", "player": 0, "rack": "ABCEKTX", "move": "8H AB", "score": 8, "total": 8, "detail": "AB 8"}, {"kind": "play", "player": 1, "rack": "AEGIRSV", "move": "H7 A.", "score": 2, "total": 2, "detail": "AA 2"}, {"kind": "play", "player": 0, "rack": "CEEKNTX", "move": "H6 C..", "score": 5, "total": 13, "detail": "CAA 5"}, {"kind": "resign", "player": 1, "rack": "EGIRSTV", "move": "(resigned)", "score": 0, "total": 2, "detail": ""}], "pending": null, "owes_lost_turn": [], "rng": [3, [2795783892, 395849121, 98570960, 2376100755, 2177522890, 2504717265, 2347188955, 1917192941, 4224845853, 924957857, 3900290900, 1538732895, 452740699, 1025323115, 3522177605, 3170372800, 2504372959, 1372949368, 2850833036, 2133087287, 1659478358, 2895759573, 1600925861, 1007184579, 3445206454, 1475366362, 876481703, 2062842931, 184297115, 2687403335, 1526802232, 2152601552, 906329239, 1998303570, 147461200, 30056355, 2159651231, 3107617281, 4268941752, 817866686, 705888778, 3391579545, 3623754823, 3387896979, 3434795578, 1478640898, 3114109282, 1133122673, 1013541776, 464715237, 1440798556, 1629226919, 3551247746, 3330766629, 1580231722, 2170440685, 3916014928, 3743382350, 3538132933, 3859090976, 2579753351, 2379080382, 1650236430, 1068600899, 490717807, 11991824, 948622273, 2994615527, 3838857406, 4005644211, 2391852721, 2606031647, 4114596986, 1132277206, 4029290232, 50960741, 3782473905, 2963287951, 798318543, 2079523494, 1969548497, 2791917028, 891823027, 3300138652, 3162773564, 2381659380, 1118269306, 3679597557, 4044061104, 2487822745, 193875499, 3361938136, 3969882624, 3364367527, 961749549, 2892483093, 2871625189, 3157497208, 2769397686, 4072775358, 1028681378, 1509430362, 13216230, 4009140330, 2269217924, 3297533753, 865127105, 2722294730, 2947232030, 828517429, 3091201378, 3274986092, 85465997, 959679615, 2610026894, 1921673102, 2433292660, 1756951456, 431742229, 3651973081, 686182206, 707645611, 1515806932, 1931669349, 1917507665, 2559672562, 3865292370, 1380017981, 3108911073, 2068398231, 1804268806, 4193791493, 25216325, 1743000760, 2642219261, 1833030446, 3993236067, 2458512851, 2286602721, 3111626614, 915494220, 3226211577, 1355645271, 2954276685, 630890711, 3348568147, 180643545, 363505523, 1042457592, 1451567672, 3254637420, 2860565318, 1576730548, 1029548446, 1631562189, 2668958428, 1009313060, 4270778188, 3095371224, 3277559597, 1057868346, 3478309362, 4065444537, 2295577647, 11521028, 898463984, 3488487336, 1627510789, 373097963, 269475414, 1502673486, 2638898985, 856038734, 2426361858, 1923125624, 3971836093, 780449583, 600011408, 667759086, 3483663822, 1835431999, 1272417008, 4029816369, 3101800723, 184508659, 4033632658, 1251781924, 2075709719, 1574017102, 3374129135, 187590169, 2331368390, 3659180092, 3092883023, 510291940, 589240205, 3482708245, 3843679910, 1438914130, 2316538598, 4155928877, 346088079, 1967362533, 1765159437, 451228081, 2397999592, 153044928, 946429236, 2563538497, 3066399131, 1897013875, 2830788608, 3780040590, 1929173008, 170939807, 1478503644, 1640364541, 4136880830, 3085453454, 3985064963, 675192176, 3752503104, 1184377453, 3083849893, 1796144563, 950547450, 1510532067, 1780069715, 3418687113, 3659237509, 3353241297, 541819855, 890528266, 2065608495, 2295739447, 1589824183, 1778772517, 3817261842, 225604810, 1689620940, 2700634436, 2046009423, 1249551163, 3516121397, 2397749582, 1500652079, 62882360, 1194559585, 2384378439, 1679219168, 2580387105, 2981827799, 2552360620, 3075848108, 1011533699, 1509328079, 193564935, 160601684, 1288760312, 2223718343, 3654821176, 1896794529, 349280983, 1546475493, 4292601437, 2621926577, 819095791, 1243857669, 3123802122, 538140047, 3768924237, 1888181561, 3769493186, 381611147, 1122263078, 1075381371, 1631465033, 1194513281, 684162567, 870873549, 3408723683, 68249560, 2985099129, 10795576, 2562554701, 3458920008, 3114368253, 416857973, 462929655, 3537848022, 3243118581, 2887521103, 3950178534, 590673569, 4137928521, 3951603432, 3834315253, 1744451250, 4225928787, 2088806913, 2548627890, 3373592527, 2465939399, 3785233218, 330503853, 660047106, 2808020431, 4200658205, 395048216, 3704264913, 64767248, 4136990161, 3177892696, 1821685412, 1126703215, 3912292040, 1724619913, 4235884335, 3878005566, 1900795822, 187177535, 927782630, 2859119853, 238917120, 3500223279, 2318275105, 3016710686, 4267578751, 311252949, 3483155742, 1808890560, 1431586652, 1879300035, 725394876, 1192335283, 140275642, 2684170982, 2066882587, 3127467229, 4244210350, 2502459692, 1661713612, 985606881, 1662981928, 1411553157, 2732154933, 3974642916, 1788144504, 3329494265, 662167098, 2155677721, 3979046167, 1455972693, 1104909917, 1095345280, 3772015099, 2285657584, 3841794403, 170619619, 3436985069, 1841771349, 3919245444, 4069851202, 4110745088, 1546646802, 3664354295, 2457479441, 295826295, 1023861882, 1949132116, 3268040839, 652159906, 2222481433, 3225411290, 742049011, 3517541573, 4106084411, 2126107405, 4022472317, 802332501, 572984828, 520732591, 1505544726, 4321124, 1841343336, 2124981756, 1124508766, 4270683964, 1583829011, 845800019, 716123869, 3982234336, 722574374, 1352537856, 3553493804, 1915929592, 4076519933, 1438971606, 1665936510, 3970203634, 690972093, 599761795, 2832268052, 1694304241, 1630425166, 89542046, 3413972229, 3627024643, 1686523108, 1381195011, 3825498725, 3457605953, 1367854113, 918590050, 744436603, 1472948165, 1832878451, 293505441, 1749207247, 1248739072, 2950686332, 1245714870, 3417117114, 3500788931, 460116332, 1377959640, 923353011, 1299629463, 1667467954, 1687940520, 1660670402, 294918611, 1831348465, 98409171, 3070171527, 376234887, 2634244736, 3843467821, 2478304039, 1681072766, 3455009052, 966269473, 497640180, 487073938, 307898147, 4116075973, 986742720, 945260308, 219031845, 3671847627, 196912548, 3124102448, 193306746, 831233737, 764045514, 114632697, 1560299670, 3013653818, 2775628437, 2339065675, 852640448, 3619775514, 1106277578, 373566283, 3131387224, 3234021341, 2155131180, 39978562, 3991170348, 3437633257, 3271741981, 182587855, 2041821787, 3646243578, 1817243938, 1974429951, 2618148756, 3816148916, 936848148, 2710759181, 2180829502, 3333879818, 3489644232, 2856329944, 3481312249, 1781876556, 1699840451, 2913016920, 1890955269, 2193539468, 3472660096, 2854700164, 3950528310, 1968442517, 2715549505, 3457602676, 1679011109, 966578552, 4141406861, 3208575921, 2240435598, 3801705485, 3459393095, 1600532174, 3503640054, 4245440747, 1854386563, 3639983527, 613704554, 728829155, 829584311, 2913505623, 3994794450, 2821485302, 3240461763, 2707517094, 2820928525, 2700608697, 383568884, 1498739318, 149003644, 3068896410, 1168941140, 2693401016, 801826073, 676121995, 3697449345, 2927694504, 2875398212, 1321513739, 4040278003, 1353408545, 2713962466, 442920999, 3620061952, 417645939, 4007071759, 3014540243, 472749682, 1460729086, 123164050, 2666036098, 1951677601, 1519702278, 3110078836, 942994297, 1933220331, 12108482, 4291544600, 1387194970, 3497441956, 1088179296, 3282487014, 1480037656, 2054344837, 3349787962, 3959318678, 3820040170, 2599415992, 1492977255, 3632825614, 1405691014, 3152176044, 2239410832, 3000375052, 2791217396, 2823067956, 1791994432, 481971837, 1645541616, 4124743770, 136895071, 3363684805, 1659021715, 1404796121, 3754487043, 3790687458, 3288205592, 2317334877, 447135942, 1865367218, 3228105320, 159788830, 2376275962, 3333160323, 1522983730, 1695098039, 426626928, 3299756069, 2198399918, 2160388248, 1545352287, 10371812, 3942995404, 3525750624, 4050289310, 1409853676, 126822994, 1154411424, 867553816, 3967095290, 874247105, 1055009468, 3416093041, 4064606672, 2071965715, 565807448, 769658343, 4009199415, 2216095823, 406968242, 800564227, 2417906387, 465423459, 2286095299, 1341930256, 2697785780, 2225502327, 2081212823, 2476694355, 1711104774, 2684157059, 2322666190, 3785941655, 158], null]}',NULL,0,1700000000.0,1700000180.0,NULL,'scrabble');
INSERT INTO "games" VALUES(2,1000,3000,11,'finished','{"size": 9, "komi": 7.5, "handicap": 0, "method": "area", "turn_seconds": 0, "ai_level": null, "opponent": 12, "creator_black": true}',3,'{"format": 1, "game": {"format": 1, "size": 9, "komi": 7.5, "handicap": 0, "free_handicap": [], "method": "area", "actions": ["B E5", "W C3"], "dead": [], "accepted": [], "resigned": "W", "timed_out": null}, "extra": {"version": 4, "undo": null, "proposal": [], "proposer": ""}}',NULL,0,1700000180.0,1700000180.0,NULL,'go');
INSERT INTO "games" VALUES(3,1000,2001,11,'active','{"variant": "standard", "challenge_mode": "void", "turn_seconds": 0, "hints": 3, "ai_level": "hard", "rated": true}',2,'{"schema": 2, "variant": {"name": "standard", "title": "Standard Scrabble (15x15, English)", "rack_size": 7, "bingo_bonus": 50, "exchange_min_bag": 7, "scoreless_rounds": 3, "board": {"start": "H8", "layout": "3W -- -- 2L -- -- -- 3W -- -- -- 2L -- -- 3W\n-- 2W -- -- -- 3L -- -- -- 3L -- -- -- 2W --\n-- -- 2W -- -- -- 2L -- 2L -- -- -- 2W -- --\n2L -- -- 2W -- -- -- 2L -- -- -- 2W -- -- 2L\n-- -- -- -- 2W -- -- -- -- -- 2W -- -- -- --\n-- 3L -- -- -- 3L -- -- -- 3L -- -- -- 3L --\n-- -- 2L -- -- -- 2L -- 2L -- -- -- 2L -- --\n3W -- -- 2L -- -- -- 2W -- -- -- 2L -- -- 3W\n-- -- 2L -- -- -- 2L -- 2L -- -- -- 2L -- --\n-- 3L -- -- -- 3L -- -- -- 3L -- -- -- 3L --\n-- -- -- -- 2W -- -- -- -- -- 2W -- -- -- --\n2L -- -- 2W -- -- -- 2L -- -- -- 2W -- -- 2L\n-- -- 2W -- -- -- 2L -- 2L -- -- -- 2W -- --\n-- 2W -- -- -- 3L -- -- -- 3L -- -- -- 2W --\n3W -- -- 2L -- -- -- 3W -- -- -- 2L -- -- 3W"}, "tiles": {"blanks": 2, "A": [9, 1], "B": [2, 3], "C": [2, 3], "D": [4, 2], "E": [12, 1], "F": [2, 4], "G": [3, 2], "H": [2, 4], "I": [9, 1], "J": [1, 8], "K": [1, 5], "L": [4, 1], "M": [2, 3], "N": [6, 1], "O": [8, 1], "P": [2, 3], "Q": [1, 10], "R": [6, 1], "S": [4, 1], "T": [6, 1], "U": [4, 1], "V": [2, 4], "W": [2, 4], "X": [1, 8], "Y": [2, 4], "Z": [1, 10]}}, "challenge_mode": "void", "board": ["...............", "...............", "...............", "...............", ".......E.......", ".......C.......", ".......A.......", ".......AB......", "...............", "...............", "...............", "...............", "...............", "...............", "..............."], "bag": "ASOOARAADEDELCRBTRAI?JUNSEMWDIPIITIEGDRUEZMROISGTETEOHINENVAOW?UFFEYPNLIOYAUHONQL", "players": [{"name": "Alice", "rack": "EEKLNTX", "score": 13, "resigned": false}, {"name": "AI", "rack": "GIORSTV", "score": 8, "resigned": false}], "current": 0, "scoreless": 0, "over": false, "history": [{"kind": "play", "player": 0, "rack": "ABCEKTX", "move": "8H AB", "score": 8, "total": 8, "detail": "AB 8"}, {"kind": "play", "player": 1, "rack": "AEGIRSV", "move": "H7 A.", "score": 2, "total": 2, "detail": "AA 2"}, {"kind": "play", "player": 0, "rack": "CEEKNTX", "move": "H6 C..", "score": 5, "total": 13, "detail": "CAA 5"}, {"kind": "play", "player": 1, "rack": "EGIRSTV", "move": "H5 E...", "score": 6, "total": 8, "detail": "ECAA 6"}], "pending": null, "owes_lost_turn": [], "rng": [3, [2795783892, 395849121, 98570960, 2376100755, 2177522890, 2504717265, 2347188955, 1917192941, 4224845853, 924957857, 3900290900, 1538732895, 452740699, 1025323115, 3522177605, 3170372800, 2504372959, 1372949368, 2850833036, 2133087287, 1659478358, 2895759573, 1600925861, 1007184579, 3445206454, 1475366362, 876481703, 2062842931, 184297115, 2687403335, 1526802232, 2152601552, 906329239, 1998303570, 147461200, 30056355, 2159651231, 3107617281, 4268941752, 817866686, 705888778, 3391579545, 3623754823, 3387896979, 3434795578, 1478640898, 3114109282, 1133122673, 1013541776, 464715237, 1440798556, 1629226919, 3551247746, 3330766629, 1580231722, 2170440685, 3916014928, 3743382350, 3538132933, 3859090976, 2579753351, 2379080382, 1650236430, 1068600899, 490717807, 11991824, 948622273, 2994615527, 3838857406, 4005644211, 2391852721, 2606031647, 4114596986, 1132277206, 4029290232, 50960741, 3782473905, 2963287951, 798318543, 2079523494, 1969548497, 2791917028, 891823027, 3300138652, 3162773564, 2381659380, 1118269306, 3679597557, 4044061104, 2487822745, 193875499, 3361938136, 3969882624, 3364367527, 961749549, 2892483093, 2871625189, 3157497208, 2769397686, 4072775358, 1028681378, 1509430362, 13216230, 4009140330, 2269217924, 3297533753, 865127105, 2722294730, 2947232030, 828517429, 3091201378, 3274986092, 85465997, 959679615, 2610026894, 1921673102, 2433292660, 1756951456, 431742229, 3651973081, 686182206, 707645611, 1515806932, 1931669349, 1917507665, 2559672562, 3865292370, 1380017981, 3108911073, 2068398231, 1804268806, 4193791493, 25216325, 1743000760, 2642219261, 1833030446, 3993236067, 2458512851, 2286602721, 3111626614, 915494220, 3226211577, 1355645271, 2954276685, 630890711, 3348568147, 180643545, 363505523, 1042457592, 1451567672, 3254637420, 2860565318, 1576730548, 1029548446, 1631562189, 2668958428, 1009313060, 4270778188, 3095371224, 3277559597, 1057868346, 3478309362, 4065444537, 2295577647, 11521028, 898463984, 3488487336, 1627510789, 373097963, 269475414, 1502673486, 2638898985, 856038734, 2426361858, 1923125624, 3971836093, 780449583, 600011408, 667759086, 3483663822, 1835431999, 1272417008, 4029816369, 3101800723, 184508659, 4033632658, 1251781924, 2075709719, 1574017102, 3374129135, 187590169, 2331368390, 3659180092, 3092883023, 510291940, 589240205, 3482708245, 3843679910, 1438914130, 2316538598, 4155928877, 346088079, 1967362533, 1765159437, 451228081, 2397999592, 153044928, 946429236, 2563538497, 3066399131, 1897013875, 2830788608, 3780040590, 1929173008, 170939807, 1478503644, 1640364541, 4136880830, 3085453454, 3985064963, 675192176, 3752503104, 1184377453, 3083849893, 1796144563, 950547450, 1510532067, 1780069715, 3418687113, 3659237509, 3353241297, 541819855, 890528266, 2065608495, 2295739447, 1589824183, 1778772517, 3817261842, 225604810, 1689620940, 2700634436, 2046009423, 1249551163, 3516121397, 2397749582, 1500652079, 62882360, 1194559585, 2384378439, 1679219168, 2580387105, 2981827799, 2552360620, 3075848108, 1011533699, 1509328079, 193564935, 160601684, 1288760312, 2223718343, 3654821176, 1896794529, 349280983, 1546475493, 4292601437, 2621926577, 819095791, 1243857669, 3123802122, 538140047, 3768924237, 1888181561, 3769493186, 381611147, 1122263078, 1075381371, 1631465033, 1194513281, 684162567, 870873549, 3408723683, 68249560, 2985099129, 10795576, 2562554701, 3458920008, 3114368253, 416857973, 462929655, 3537848022, 3243118581, 2887521103, 3950178534, 590673569, 4137928521, 3951603432, 3834315253, 1744451250, 4225928787, 2088806913, 2548627890, 3373592527, 2465939399, 3785233218, 330503853, 660047106, 2808020431, 4200658205, 395048216, 3704264913, 64767248, 4136990161, 3177892696, 1821685412, 1126703215, 3912292040, 1724619913, 4235884335, 3878005566, 1900795822, 187177535, 927782630, 2859119853, 238917120, 3500223279, 2318275105, 3016710686, 4267578751, 311252949, 3483155742, 1808890560, 1431586652, 1879300035, 725394876, 1192335283, 140275642, 2684170982, 2066882587, 3127467229, 4244210350, 2502459692, 1661713612, 985606881, 1662981928, 1411553157, 2732154933, 3974642916, 1788144504, 3329494265, 662167098, 2155677721, 3979046167, 1455972693, 1104909917, 1095345280, 3772015099, 2285657584, 3841794403, 170619619, 3436985069, 1841771349, 3919245444, 4069851202, 4110745088, 1546646802, 3664354295, 2457479441, 295826295, 1023861882, 1949132116, 3268040839, 652159906, 2222481433, 3225411290, 742049011, 3517541573, 4106084411, 2126107405, 4022472317, 802332501, 572984828, 520732591, 1505544726, 4321124, 1841343336, 2124981756, 1124508766, 4270683964, 1583829011, 845800019, 716123869, 3982234336, 722574374, 1352537856, 3553493804, 1915929592, 4076519933, 1438971606, 1665936510, 3970203634, 690972093, 599761795, 2832268052, 1694304241, 1630425166, 89542046, 3413972229, 3627024643, 1686523108, 1381195011, 3825498725, 3457605953, 1367854113, 918590050, 744436603, 1472948165, 1832878451, 293505441, 1749207247, 1248739072, 2950686332, 1245714870, 3417117114, 3500788931, 460116332, 1377959640, 923353011, 1299629463, 1667467954, 1687940520, 1660670402, 294918611, 1831348465, 98409171, 3070171527, 376234887, 2634244736, 3843467821, 2478304039, 1681072766, 3455009052, 966269473, 497640180, 487073938, 307898147, 4116075973, 986742720, 945260308, 219031845, 3671847627, 196912548, 3124102448, 193306746, 831233737, 764045514, 114632697, 1560299670, 3013653818, 2775628437, 2339065675, 852640448, 3619775514, 1106277578, 373566283, 3131387224, 3234021341, 2155131180, 39978562, 3991170348, 3437633257, 3271741981, 182587855, 2041821787, 3646243578, 1817243938, 1974429951, 2618148756, 3816148916, 936848148, 2710759181, 2180829502, 3333879818, 3489644232, 2856329944, 3481312249, 1781876556, 1699840451, 2913016920, 1890955269, 2193539468, 3472660096, 2854700164, 3950528310, 1968442517, 2715549505, 3457602676, 1679011109, 966578552, 4141406861, 3208575921, 2240435598, 3801705485, 3459393095, 1600532174, 3503640054, 4245440747, 1854386563, 3639983527, 613704554, 728829155, 829584311, 2913505623, 3994794450, 2821485302, 3240461763, 2707517094, 2820928525, 2700608697, 383568884, 1498739318, 149003644, 3068896410, 1168941140, 2693401016, 801826073, 676121995, 3697449345, 2927694504, 2875398212, 1321513739, 4040278003, 1353408545, 2713962466, 442920999, 3620061952, 417645939, 4007071759, 3014540243, 472749682, 1460729086, 123164050, 2666036098, 1951677601, 1519702278, 3110078836, 942994297, 1933220331, 12108482, 4291544600, 1387194970, 3497441956, 1088179296, 3282487014, 1480037656, 2054344837, 3349787962, 3959318678, 3820040170, 2599415992, 1492977255, 3632825614, 1405691014, 3152176044, 2239410832, 3000375052, 2791217396, 2823067956, 1791994432, 481971837, 1645541616, 4124743770, 136895071, 3363684805, 1659021715, 1404796121, 3754487043, 3790687458, 3288205592, 2317334877, 447135942, 1865367218, 3228105320, 159788830, 2376275962, 3333160323, 1522983730, 1695098039, 426626928, 3299756069, 2198399918, 2160388248, 1545352287, 10371812, 3942995404, 3525750624, 4050289310, 1409853676, 126822994, 1154411424, 867553816, 3967095290, 874247105, 1055009468, 3416093041, 4064606672, 2071965715, 565807448, 769658343, 4009199415, 2216095823, 406968242, 800564227, 2417906387, 465423459, 2286095299, 1341930256, 2697785780, 2225502327, 2081212823, 2476694355, 1711104774, 2684157059, 2322666190, 3785941655, 158], null]}',NULL,0,1700000180.0,1700000180.0,NULL,'scrabble');
INSERT INTO "games" VALUES(4,1000,3001,11,'active','{"size": 9, "komi": 6.5, "handicap": 0, "method": "area", "turn_seconds": 0, "ai_level": null, "opponent": 12, "creator_black": true}',4,'{"format": 1, "game": {"format": 1, "size": 9, "komi": 6.5, "handicap": 0, "free_handicap": [], "method": "area", "actions": ["B E5", "W D4", "B F6"], "dead": [], "accepted": [], "resigned": null, "timed_out": null}, "extra": {"version": 4, "undo": null, "proposal": [], "proposer": ""}}',NULL,0,1700000180.0,1700000180.0,NULL,'go');
INSERT INTO "games" VALUES(5,1000,2002,13,'lobby','{"variant": "standard", "challenge_mode": "void", "turn_seconds": 0, "hints": 3, "ai_level": "expert", "rated": true}',5,NULL,NULL,0,1700000180.0,1700000180.0,NULL,'scrabble');
CREATE TABLE guild_features (
    guild_id    INTEGER NOT NULL,
    feature     TEXT    NOT NULL,
    enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (guild_id, feature)
);
INSERT INTO "guild_features" VALUES(1001,'analysis',0);
CREATE TABLE kind_stats (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,  -- the name last seen
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, kind, user_id)
);
INSERT INTO "kind_stats" VALUES(1000,'go',11,'Alice',1,1,0);
INSERT INTO "kind_stats" VALUES(1000,'go',12,'Bob',1,0,0);
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    data        TEXT    NOT NULL,  -- JSON: the move number, events, opening lines and racks to DM
    created_at  REAL    NOT NULL,
    sent_at     REAL               -- NULL until delivered
, posted_at REAL);
INSERT INTO "outbox" VALUES(1,1,'{"move": 0, "events": [], "lines": ["The game begins!", "Draw for the first turn: Alice draws A, Bob draws T. Alice plays first."], "racks": [0, 1]}',1700000000.0,1700000180.0,1700000060.0);
INSERT INTO "outbox" VALUES(2,1,'{"move": 1, "events": [{"kind": "play", "player": 0, "rack": "ABCEKTX", "move": "8H AB", "score": 8, "total": 8, "detail": "AB 8"}], "lines": [], "racks": [0]}',1700000000.0,1700000180.0,1700000120.0);
INSERT INTO "outbox" VALUES(3,1,'{"move": 2, "events": [{"kind": "play", "player": 1, "rack": "AEGIRSV", "move": "H7 A.", "score": 2, "total": 2, "detail": "AA 2"}], "lines": [], "racks": [1]}',1700000060.0,1700000180.0,1700000180.0);
INSERT INTO "outbox" VALUES(4,1,'{"move": 3, "events": [{"kind": "play", "player": 0, "rack": "CEEKNTX", "move": "H6 C..", "score": 5, "total": 13, "detail": "CAA 5"}], "lines": [], "racks": [0]}',1700000120.0,1700000180.0,1700000180.0);
INSERT INTO "outbox" VALUES(5,1,'{"move": 4, "events": [{"kind": "resign", "player": 1, "rack": "EGIRSTV", "move": "(resigned)", "score": 0, "total": 2, "detail": ""}], "lines": [], "racks": []}',1700000180.0,1700000180.0,NULL);
INSERT INTO "outbox" VALUES(6,2,'{"kind": "go", "version": 1, "lines": ["<@12> joined."]}',1700000180.0,1700000180.0,NULL);
INSERT INTO "outbox" VALUES(7,2,'{"kind": "go", "version": 2, "lines": ["Alice (Black) played E5."]}',1700000180.0,1700000180.0,NULL);
INSERT INTO "outbox" VALUES(8,2,'{"kind": "go", "version": 3, "lines": ["Bob (White) played C3."]}',1700000180.0,1700000180.0,NULL);
INSERT INTO "outbox" VALUES(9,2,'{"kind": "go", "version": 4, "lines": ["Bob (White) resigned."]}',1700000180.0,1700000180.0,NULL);
INSERT INTO "outbox" VALUES(10,3,'{"move": 0, "events": [], "lines": ["The game begins!", "Draw for the first turn: Alice draws A, AI draws T. Alice plays first."], "racks": [0, 1]}',1700000180.0,1700000180.0,1700000180.0);
INSERT INTO "outbox" VALUES(11,3,'{"move": 1, "events": [{"kind": "play", "player": 0, "rack": "ABCEKTX", "move": "8H AB", "score": 8, "total": 8, "detail": "AB 8"}], "lines": [], "racks": [0]}',1700000180.0,1700000180.0,1700000180.0);
INSERT INTO "outbox" VALUES(12,3,'{"move": 2, "events": [{"kind": "play", "player": 1, "rack": "AEGIRSV", "move": "H7 A.", "score": 2, "total": 2, "detail": "AA 2"}], "lines": [], "racks": [1]}',1700000180.0,1700000180.0,1700000180.0);
INSERT INTO "outbox" VALUES(13,3,'{"move": 3, "events": [{"kind": "play", "player": 0, "rack": "CEEKNTX", "move": "H6 C..", "score": 5, "total": 13, "detail": "CAA 5"}], "lines": [], "racks": [0]}',1700000180.0,1700000180.0,1700000180.0);
INSERT INTO "outbox" VALUES(14,3,'{"move": 4, "events": [{"kind": "play", "player": 1, "rack": "EGIRSTV", "move": "H5 E...", "score": 6, "total": 8, "detail": "ECAA 6"}], "lines": [], "racks": [1]}',1700000180.0,NULL,NULL);
INSERT INTO "outbox" VALUES(15,4,'{"kind": "go", "version": 1, "lines": ["<@12> joined."]}',1700000180.0,1700000180.0,NULL);
INSERT INTO "outbox" VALUES(16,4,'{"kind": "go", "version": 2, "lines": ["Alice (Black) played E5."]}',1700000180.0,1700000180.0,NULL);
INSERT INTO "outbox" VALUES(17,4,'{"kind": "go", "version": 3, "lines": ["Bob (White) played D4."]}',1700000180.0,1700000180.0,NULL);
INSERT INTO "outbox" VALUES(18,4,'{"kind": "go", "version": 4, "lines": ["Alice (Black) played F6."]}',1700000180.0,NULL,NULL);
CREATE TABLE puzzle_answers (
    guild_id    INTEGER NOT NULL,
    day         TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,  -- the name shown on the leaderboard
    answer      TEXT    NOT NULL,  -- the play as given (GCG notation)
    points      INTEGER NOT NULL,  -- puzzle points earned (see bot/service/puzzles.py)
    solved      INTEGER NOT NULL,  -- 1 when within the puzzle's tolerance of the best
    at          REAL    NOT NULL,
    PRIMARY KEY (guild_id, day, user_id),
    FOREIGN KEY (guild_id, day) REFERENCES puzzles (guild_id, day)
);
INSERT INTO "puzzle_answers" VALUES(1000,'2026-01-01',11,'Alice','8D QI',10,1,1700000180.0);
CREATE TABLE puzzles (
    guild_id    INTEGER NOT NULL,
    day         TEXT    NOT NULL,  -- UTC date, YYYY-MM-DD
    data        TEXT    NOT NULL,  -- JSON of scrabble_core.puzzles.Puzzle.to_dict()
    created_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, day)
);
INSERT INTO "puzzles" VALUES(1000,'2026-01-01','{"source": "game 1, turn 0", "view": {"variant": {"name": "standard", "title": "Standard Scrabble (15x15, English)", "rack_size": 7, "bingo_bonus": 50, "exchange_min_bag": 7, "scoreless_rounds": 3, "board": {"start": "H8", "layout": "3W -- -- 2L -- -- -- 3W -- -- -- 2L -- -- 3W\n-- 2W -- -- -- 3L -- -- -- 3L -- -- -- 2W --\n-- -- 2W -- -- -- 2L -- 2L -- -- -- 2W -- --\n2L -- -- 2W -- -- -- 2L -- -- -- 2W -- -- 2L\n-- -- -- -- 2W -- -- -- -- -- 2W -- -- -- --\n-- 3L -- -- -- 3L -- -- -- 3L -- -- -- 3L --\n-- -- 2L -- -- -- 2L -- 2L -- -- -- 2L -- --\n3W -- -- 2L -- -- -- 2W -- -- -- 2L -- -- 3W\n-- -- 2L -- -- -- 2L -- 2L -- -- -- 2L -- --\n-- 3L -- -- -- 3L -- -- -- 3L -- -- -- 3L --\n-- -- -- -- 2W -- -- -- -- -- 2W -- -- -- --\n2L -- -- 2W -- -- -- 2L -- -- -- 2W -- -- 2L\n-- -- 2W -- -- -- 2L -- 2L -- -- -- 2W -- --\n-- 2W -- -- -- 3L -- -- -- 3L -- -- -- 2W --\n3W -- -- 2L -- -- -- 3W -- -- -- 2L -- -- 3W"}, "tiles": {"blanks": 2, "A": [9, 1], "B": [2, 3], "C": [2, 3], "D": [4, 2], "E": [12, 1], "F": [2, 4], "G": [3, 2], "H": [2, 4], "I": [9, 1], "J": [1, 8], "K": [1, 5], "L": [4, 1], "M": [2, 3], "N": [6, 1], "O": [8, 1], "P": [2, 3], "Q": [1, 10], "R": [6, 1], "S": [4, 1], "T": [6, 1], "U": [4, 1], "V": [2, 4], "W": [2, 4], "X": [1, 8], "Y": [2, 4], "Z": [1, 10]}}, "board": ["...............", "...............", "...............", "...............", "...............", ".......C.......", ".......A.......", ".......AB......", "...............", "...............", "...............", "...............", "...............", "...............", "..............."], "rack": "EEKLNTX", "unseen": "AAAAAAABCDDDDEEEEEEEEEEFFGGGHHIIIIIIIIIJLLLMMNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTUUUUVVWWYYZ??", "bag_size": 82, "scores": [13, 2], "seat": 0}, "best": [["8D QI", 22, 24.5]]}',1700000180.0);
CREATE TABLE rating_history (
    seq         INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    player      TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    place       INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    finished_at REAL    NOT NULL,
    UNIQUE (game_id, player)
);
INSERT INTO "rating_history" VALUES(1,1,1000,'scrabble','user:11','Alice',1,2.76353894931404973087e+01,8.06590141354368,1700000180.0);
INSERT INTO "rating_history" VALUES(2,1,1000,'scrabble','user:12','Bob',2,2.23646105068595026912e+01,8.06590141354368,1700000180.0);
INSERT INTO "rating_history" VALUES(3,2,1000,'go','user:11','Alice',1,2.76353894931404973087e+01,8.06590141354368,1700000180.0);
INSERT INTO "rating_history" VALUES(4,2,1000,'go','user:12','Bob',2,2.23646105068595026912e+01,8.06590141354368,1700000180.0);
CREATE TABLE rating_state (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    model       TEXT    NOT NULL,
    finished    INTEGER NOT NULL,
    last_game   INTEGER,
    last_at     REAL
);
INSERT INTO "rating_state" VALUES(1,'openskill plackett-luce mu=25 sigma=25/3 beta=25/6 tau=25/300; places v1',2,2,NULL);
CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    player      TEXT    NOT NULL,
    name        TEXT    NOT NULL,  -- the name last seen
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    games       INTEGER NOT NULL,  -- rated games played
    PRIMARY KEY (guild_id, kind, player)
);
INSERT INTO "ratings" VALUES(1000,'scrabble','user:11','Alice',2.76353894931404973087e+01,8.06590141354368,1);
INSERT INTO "ratings" VALUES(1000,'scrabble','user:12','Bob',2.23646105068595026912e+01,8.06590141354368,1);
INSERT INTO "ratings" VALUES(1000,'go','user:11','Alice',2.76353894931404973087e+01,8.06590141354368,1);
INSERT INTO "ratings" VALUES(1000,'go','user:12','Bob',2.23646105068595026912e+01,8.06590141354368,1);
CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL,  -- turn order, from 0
    user_id     INTEGER,           -- NULL for an AI seat
    name        TEXT    NOT NULL,  -- the name the engine knows the seat by
    ai_level    TEXT,              -- NULL for a human seat
    hints_used  INTEGER NOT NULL DEFAULT 0,
    timeouts    INTEGER NOT NULL DEFAULT 0,  -- consecutive turn timeouts
    PRIMARY KEY (game_id, seat)
);
INSERT INTO "seats" VALUES(1,0,11,'Alice',NULL,0,0);
INSERT INTO "seats" VALUES(1,1,12,'Bob',NULL,0,0);
INSERT INTO "seats" VALUES(2,0,11,'Alice',NULL,0,0);
INSERT INTO "seats" VALUES(2,1,12,'Bob',NULL,0,0);
INSERT INTO "seats" VALUES(3,0,11,'Alice',NULL,0,0);
INSERT INTO "seats" VALUES(3,1,NULL,'AI','hard',0,0);
INSERT INTO "seats" VALUES(4,0,11,'Alice',NULL,0,0);
INSERT INTO "seats" VALUES(4,1,12,'Bob',NULL,0,0);
INSERT INTO "seats" VALUES(5,0,13,'Carol',NULL,0,0);
CREATE TABLE shard_leases (
    shard       INTEGER NOT NULL PRIMARY KEY,
    shard_count INTEGER NOT NULL,
    holder      TEXT    NOT NULL,  -- who holds it: host, pid and a random tag (see bot/leases.py)
    expires_at  REAL    NOT NULL   -- Unix time at which it lapses unless renewed
);
CREATE TABLE stats (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,  -- the name last seen
    games       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    total_score INTEGER NOT NULL DEFAULT 0,
    best_score  INTEGER,
    best_move   TEXT,
    PRIMARY KEY (guild_id, user_id)
);
INSERT INTO "stats" VALUES(1000,11,'Alice',1,1,13,8,'8H AB');
INSERT INTO "stats" VALUES(1000,12,'Bob',1,0,2,2,'H7 A.');
CREATE INDEX games_by_status ON games (status);
CREATE INDEX events_by_game ON events (game_id, id);
CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;
CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'the event log is append-only');
END;
CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL;
CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
    WHERE status IN ('lobby', 'active') AND quarantined IS NULL;
CREATE INDEX puzzle_answers_by_user ON puzzle_answers (guild_id, user_id, day);
CREATE INDEX games_by_kind ON games (kind, status);
CREATE INDEX rating_history_by_player ON rating_history (guild_id, kind, player, finished_at, game_id);
CREATE INDEX rating_history_by_time ON rating_history (guild_id, kind, finished_at, game_id);
COMMIT;
PRAGMA user_version = 7;
