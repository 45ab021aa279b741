"""Word lists the scanners consult: months, weekdays, titles, connectors and common words.

Kept apart from the rules so the rules read as rules; every list is general English, never
words picked from a benchmark's records.
"""

from __future__ import annotations

__all__ = [
    "COMMON_WORDS",
    "CONNECTORS",
    "EXTENSIONS",
    "HEDGE_WORDS",
    "MONTHS",
    "MONTH_ABBREVIATIONS",
    "PLACE_GROUPS",
    "QUANTITY_STOP_NOUNS",
    "TITLES",
    "TLDS",
    "WEEKDAYS",
]


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _word_tuple(text: str) -> tuple[str, ...]:
    return tuple(text.split())


MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
# Abbreviations a source may write before or after a day number ("Aug 8", "8 Sept.").
MONTH_ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "January": ("Jan",), "February": ("Feb",), "March": ("Mar",), "April": ("Apr",),
    "May": (), "June": ("Jun",), "July": ("Jul",), "August": ("Aug",),
    "September": ("Sep", "Sept"), "October": ("Oct",), "November": ("Nov",),
    "December": ("Dec",),
}  # fmt: skip
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# Words that stand before a name and are not part of it: "President Bashar al-Assad".
TITLES = _word_set(
    """
    mr mrs ms miss mx dr prof professor sir dame lord lady madam president vice king
    queen prince princess emperor empress duke duchess earl count pope cardinal bishop
    archbishop rev reverend father sister brother general gen colonel col major captain
    capt lieutenant lt sergeant sgt admiral commander minister premier chancellor
    secretary senator sen governor gov mayor councillor congressman congresswoman
    representative rep ambassador judge justice chief coach manager chairman chairwoman
    chair ceo cfo director officer inspector detective sheikh sultan emir ayatollah
    rabbi imam
    """
)

# Lower-case words that may join the capitalised words of one name: "House of Valois",
# "Bashar al-Assad", "Ludwig van Beethoven".
CONNECTORS = ("of", "de", "da", "del", "della", "der", "den", "van", "von", "du", "la", "le",
              "bin", "ibn", "al", "el", "y")  # fmt: skip

# Capitalised, these open sentences, headings and list items far more often than names.
# A name made only of such words is no name ("The", "However", "Key Points").
COMMON_WORDS = _word_set(
    """
    a an the this that these those there here it its it's he she they we you i me him
    her them us his hers their theirs our ours your yours my mine who whom whose which
    what when where why how whether if then than so such both each every all any some
    many much most more few several other another either neither no not nor none nothing
    yes and or but yet for with without within in on at by from to into onto of off over
    under above below about after before since during until till while though although
    because as like unlike despite among amid between beyond through throughout upon
    against toward towards via per is are was were be been being am do does did done
    have has had having will would shall should can could may might must however
    additionally also meanwhile overall furthermore moreover finally instead initially
    later then now today yesterday tomorrow thus therefore hence otherwise similarly
    likewise notably specifically currently previously recently originally eventually
    ultimately unfortunately fortunately interestingly importantly generally typically
    usually often sometimes still even only just already again altogether according
    following regarding including concerning considering given based first second third
    fourth fifth last next final total summary key note notes points point conclusion
    overview background details detail passage article text source story report section
    title here's there's that's what's it's let's i'm i've i'll i'd you're we're they're
    ok okay please thanks thank sure well oh good best top full main minor
    """
)

# Sentences holding one of these only guess: "The file is likely config.ts".
HEDGE_WORDS = (
    "likely", "unlikely", "probably", "possibly", "perhaps", "maybe", "might", "may", "could",
    "seems", "seem", "seemingly", "appears", "apparently", "presumably", "supposedly",
    "i think", "i believe", "i guess", "i suspect", "not sure", "try opening", "try running",
    "try",
)  # fmt: skip

# Words after a small number that are not the thing counted: "one of", "3 and 4".
QUANTITY_STOP_NOUNS = _word_set(
    """
    and or of to in on at by for the a an from with is are was were be as than then that
    this but nor so if per out off up down over under into onto times more less other
    others else which who whom whose what when where while inside outside within near
    across along around behind beside besides beyond during through toward towards against
    among after before since until ago apiece each apart away back later earlier am pm
    """
)

# Places and the words made from them: a source writing "Belgium" shows an answer's
# "Belgian", and "the United States" its "USA". General knowledge, one group per place.
PLACE_GROUPS: tuple[tuple[str, ...], ...] = (
    ("United States", "USA", "U.S.", "U.S.A.", "US", "America", "American", "Americans"),
    ("United Kingdom", "UK", "U.K.", "Britain", "British", "Briton", "Britons"),
    ("England", "English"), ("Scotland", "Scottish", "Scot", "Scots"), ("Wales", "Welsh"),
    ("Ireland", "Irish"), ("France", "French"), ("Germany", "German", "Germans"),
    ("Spain", "Spanish", "Spaniard", "Spaniards"), ("Portugal", "Portuguese"),
    ("Netherlands", "Holland", "Dutch"), ("Belgium", "Belgian", "Belgians"),
    ("Switzerland", "Swiss"), ("Sweden", "Swedish", "Swede", "Swedes"),
    ("Denmark", "Danish", "Dane", "Danes"), ("Finland", "Finnish", "Finn", "Finns"),
    ("Norway", "Norwegian"), ("Poland", "Polish", "Pole", "Poles"), ("Greece", "Greek"),
    ("Turkey", "Turkish", "Turk", "Turks"), ("China", "Chinese"), ("Japan", "Japanese"),
    ("Vietnam", "Vietnamese"), ("Thailand", "Thai"), ("Philippines", "Filipino", "Philippine"),
    ("Iraq", "Iraqi"), ("Israel", "Israeli"), ("Pakistan", "Pakistani"), ("Kuwait", "Kuwaiti"),
    ("Afghanistan", "Afghan"), ("Yemen", "Yemeni"), ("Saudi Arabia", "Saudi"),
    ("Bangladesh", "Bangladeshi"), ("Lebanon", "Lebanese"), ("Sudan", "Sudanese"),
    ("Senegal", "Senegalese"), ("Nepal", "Nepalese", "Nepali"), ("Peru", "Peruvian"),
    ("Argentina", "Argentine", "Argentinian"), ("Chile", "Chilean"), ("Mexico", "Mexican"),
    ("Canada", "Canadian"), ("Brazil", "Brazilian"), ("Egypt", "Egyptian"),
    ("Europe", "European", "Europeans"), ("Arabia", "Arab", "Arabic", "Arabian"),
    ("New Zealand", "Kiwi"), ("Iceland", "Icelandic"), ("Croatia", "Croatian", "Croat"),
    ("Serbia", "Serbian", "Serb"), ("Czech Republic", "Czech"), ("Slovakia", "Slovak"),
    ("Slovenia", "Slovenian", "Slovene"), ("Hungary", "Hungarian"), ("Cyprus", "Cypriot"),
    ("Malta", "Maltese"), ("Monaco", "Monegasque"), ("Congo", "Congolese"),
    ("Ghana", "Ghanaian"), ("Mali", "Malian"), ("Qatar", "Qatari"), ("Oman", "Omani"),
)  # fmt: skip

# Extensions of the files answers name ("config.ts"), and top-level domains of bare domains.
EXTENSIONS = _word_tuple(
    """
    py pyi ipynb ts tsx js jsx mjs cjs json jsonl md mdx rst txt toml yaml yml ini cfg conf
    env lock csv tsv xml html htm css scss sql sh bash zsh ps1 bat rs go java kt kts swift c
    h cc cpp hpp cs rb php pl lua r jl scala dart vue svelte proto graphql tf log pdf png jpg
    jpeg gif svg webp avif ico zip gz tar whl parquet db sqlite
    """
)
TLDS = _word_tuple(
    """
    com org net edu gov mil int io ai dev app co uk us de fr es it nl be ch at se no dk fi pl
    cz ru ua jp cn kr in au nz ca br mx ar za eu info biz me tv ly gg xyz tech site
    """
)
