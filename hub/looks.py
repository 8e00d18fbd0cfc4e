"""What a player name reads as (docs/hub.md, Accounts): the look-alike key that makes names read alike one name.

Apart from the service so that the database's migrations (hub/db.py, migration 9: every key made again) read it
without importing the service, which imports the database.
"""

from __future__ import annotations

import unicodedata


def look_key(name: str) -> str:
    """What a player name reads as: names with one key are one name. The letters and digits that read alike in a
    sans-serif font (Unicode's confusables, UTS #39) are one: a capital I, a small l and 1; O and 0; rn and m; vv
    and w; then case aside. A small i is not an l: the capital I is mapped before the case goes ('Mario' and
    'Marlo' are two names; 'MarIo' reads as 'Marlo'). Beyond ASCII a letter reads as its letter without accents
    ('Zoë' as 'Zoe': only a Latin, Greek or Cyrillic letter's marks go, as in other scripts a mark makes
    another letter, 'がとう' is not 'かとう'), a compatibility form as its plain letter (a full-width 'Ａ' as 'A'), and the letters
    of any script drawn as Latin ones as those ('аlice' with a Cyrillic а as 'alice', 'ꓮꓡꓲꓚꓰ' in Lisu as 'alice'). (hub/db.py's LOOK_KEY_SQL
    is the same on ASCII, the names made before.)"""
    # (mapped again after the case goes: a small Cherokee letter folds to its capital)
    # (mapped before the compatibility form too: NFKD made the lunate sigma ϲ a final ς, which casefolds to σ, an 'o';
    # and the ypogegrammeni ͺ a space and a mark)
    return (_without_latin_accents(name.translate(_LATIN_LOOKS)).translate(_LATIN_LOOKS).replace("I", "l").casefold()
            .translate(_LATIN_LOOKS).casefold().translate(_READ_ALIKE).replace("rn", "m").replace("vv", "w"))


def _without_latin_accents(name: str) -> str:
    """``name`` in compatibility form (NFKD) without the combining marks on Latin, Greek and Cyrillic letters."""
    kept: list[str] = []
    base_drops = False  # the last letter a mark would sit on is one whose marks go
    for ch in unicodedata.normalize("NFKD", name):
        if not unicodedata.combining(ch):
            base_drops = unicodedata.name(ch, "").startswith(("LATIN ", "GREEK ", "CYRILLIC "))
        elif base_drops:
            continue
        kept.append(ch)
    return "".join(kept)


_READ_ALIKE = str.maketrans({"1": "l", "0": "o"})
# The letters and digits of every script a sans-serif font draws as an ASCII letter or digit, as that one (UTS #39's
# confusables, capitals apart: a Cyrillic capital Н is an H, its small н is not an h; Lisu ꓮ, Cherokee Ꭺ are A).
_LATIN_LOOKS = str.maketrans(
    # (generated: each letter or digit's one-character ASCII prototype in confusables.txt, UTS #39, as the
    # confusable-homoglyphs 3.3.1 data has it, without those NFKD makes ASCII and the mathematical alphanumerics; the Cyrillic and Greek letters mapped before
    # kept as they were: a capital Cyrillic І as I, which reads as l)
    "ıƄƍƖƦƧƷƼƽǀȜȢȣɑɡɣɩɪɯʋʏͺͿΑΒΕΖΗΙΚΜΝΟΡΤΥΧαγικνορσυϒϜ"
    "ϨϱϲϳϹϺЅІЈАВЕЗКМНОРСТУХЬабгеорсухѕіјѡѴѵҮүһҽӀӏӠԁԌԛ"
    "ԜԝՍՏՕագզհոռսցքօ۱۵۷०০৪৭੦੧੪૦ଠ୦୨௦౦೦ഠ൦൭๐໐ဝ၀ყჿሀዐᎠᎡᎢᎥᎩ"
    "ᎪᎫᎬᎳᎷᎻᎽᏀᏂᏃᏎᏏᏒᏔᏕᏙᏚᏞᏟᏢᏦᏧᏮᏳᏴᐯᑌᑭᑯᑲᒍᒪᒿᕁᕼᕽᖇᖯᖴᗅᗞᗪᗰᗷᚷᛁᛕᛖ"
    "ᴄᴏᴑᴜᴠᴡᴢᴦᶃᶌẝỿιℽⲅⲎⲒⲔⲘⲚⲞⲟⲢⲣⲤⲥⲦⲨⲬⳊⳌⳐⳒⴸⴹⵏⵔⵕⵝꓐꓑꓒꓓꓔꓖꓗꓙꓚ"
    "ꓜꓝꓟꓠꓡꓢꓣꓦꓧꓪꓫꓬꓮꓰꓲꓳꓴꙄꙇꛟꜱꝚꝪꝮꞘꞙꞟꞫꞲꞳꞴꬲꬵꬽꭇꭈꭎꭒꭚꭵꮁꮃꮓꮩꮪꮯ𐊂𐊆"
    "𐊇𐊊𐊐𐊒𐊕𐊖𐊗𐊠𐊡𐊢𐊥𐊫𐊰𐊱𐊲𐊴𐋏𐌁𐌂𐌉𐌑𐌕𐌗𐌚𐐄𐐕𐐛𐐠𐐬𐐽𐑈𐒴𐓂𐓎𐓒𐓪𐓶𐔓𐔖𐔘𐔜𐔝𐔥𐔦𐔧𑓐𑜆𑜊"
    "𑜎𑜏𑢠𑢢𑢣𑢤𑢦𑢩𑢬𑢮𑢯𑢲𑢵𑢸𑢻𑢼𑣀𑣁𑣂𑣃𑣄𑣆𑣈𑣊𑣌𑣕𑣖𑣗𑣘𑣜𑣠𑣥𑣦𑣩𖼈𖼊𖼖𖼨𖼵𖼺𖼻𖽀𖽂𖽃",
    "ibglR235sl388agyiiwuyiJABEZHIKMNOPTYXayikvopouYF"
    "2pcjCMSIJABE3KMHOPCTYXba6reopcyxsijwVvYyheli3dGq"
    "WwUSOwqqhnnugfoloVoO89o98oOO9ooooo9ooooyoUODRTiY"
    "AJEWMHYGhZ4bRWSVSLCPKd6GBVUPdbJL2xHxRbFADDMBXlKM"
    "coouvwzrgyfyiyrHlKMNOoPpCcTYX93L6VElOQXBPdDTGKJC"
    "ZFMNLSRVHWXYAElOU2iVs239Ffu3JXBeforruuyirwzvscBE"
    "FlXOPSTABCFOMTYXHBClMTX8OCLSocsROU7ouNOKCVFLXOvw"
    "wwVFLYEZ9E4LOU5TvsFiz7o3969ouyOZWCVTLlRS3AUY")
