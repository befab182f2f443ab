#!/usr/bin/env python3
"""Generate the sample container Samples/ChatApp.xcappdata (and its next version, ChatApp-2).

A messaging app in the spirit of LINE (bundle id com.example.chat), as Xcode's "Download
Container" would save it, with deliberate misplacements for the policy rules (see README.md).
Python 3 standard library only. Deterministic: seeded PRNGs (one per area, so a change in one
area leaves the bytes of the others alone), fixed contents, fixed mtimes, sorted creation order.

    python3 Samples/make_sample.py              # (re)write ChatApp.xcappdata and ChatApp-2.xcappdata
    python3 Samples/make_sample.py --version 1  # only one version
    python3 Samples/make_sample.py --check      # regenerate into a temp folder, compare, exit 1 on a difference
"""

import argparse
import json
import os
import random
import shutil
import sqlite3
import struct
import sys
import tempfile
import time
import uuid
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fileformats as ff  # noqa: E402

SEED = 20250601
BUNDLE_ID = "com.example.chat"
GROUP_ID = "group.com.example.chat"
SAMPLES = os.path.dirname(os.path.abspath(__file__))
OUTPUT_NAMES = {1: "ChatApp.xcappdata", 2: "ChatApp-2.xcappdata"}
#: When each version's container was downloaded (UTC): 2025-06-01 10:00 and 2025-06-15 10:00.
SNAPSHOT_TIME = {1: 1748772000, 2: 1749981600}
APP_VERSION = {1: "14.2.0", 2: "14.3.0"}
CORE_DATA_EPOCH = 978307200  # NSDate reference date, 2001-01-01, in Unix time

DOCS = "AppData/Documents"
LIB = "AppData/Library"
SUPPORT = LIB + "/Application Support"
CACHES = LIB + "/Caches"
TMP = "AppData/tmp"


def area_rng(area: str) -> random.Random:
    return random.Random("%d:%s" % (SEED, area))


def new_uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()


def hex_id(rng: random.Random, length: int = 32) -> str:
    return "%0*x" % (length, rng.getrandbits(4 * length))


def skewed(rng: random.Random, median: int, low: int, high: int, sigma: float = 0.7) -> int:
    """Log-normal size: most near the median, a long tail, clamped."""
    return int(min(high, max(low, median * rng.lognormvariate(0, sigma))))


# ---------------------------------------------------------------------------------------------
# The tree being built: relative path -> contents, written in one sorted pass at the end.

class Tree:
    def __init__(self, version: int):
        self.version = version
        self.files = {}     # path -> (bytes, mtime)
        self.links = {}     # path -> (target, mtime)

    def default_mtime(self, path: str) -> int:
        """Spread over the three weeks before the v1 download, stable per path."""
        return SNAPSHOT_TIME[1] - 3600 - zlib.crc32(path.encode()) % (21 * 86400)

    def recent_mtime(self, path: str, hours: int = 48) -> int:
        """Touched shortly before this version's download."""
        return SNAPSHOT_TIME[self.version] - 60 - zlib.crc32(path.encode()) % (hours * 3600)

    def add(self, path: str, data: bytes, mtime: int = None) -> str:
        if path in self.files or path in self.links:
            raise ValueError("duplicate path " + path)
        self.files[path] = (data, mtime if mtime is not None else self.default_mtime(path))
        return path

    def link(self, path: str, target: str, mtime: int = None):
        self.links[path] = (target, mtime if mtime is not None else self.default_mtime(path))

    def sidecar(self, path: str, attributes, debug_tag: int = 0, mtime: int = None) -> str:
        """The `._name` AppleDouble file a Mac leaves next to `path` on a non-Mac volume."""
        folder, name = path.rsplit("/", 1)
        owner = self.files.get(path)
        when = mtime if mtime is not None else (owner[1] if owner else None)
        return self.add(folder + "/._" + name, ff.appledouble(attributes, debug_tag), when)

    def add_store(self, path: str, triple, mtime: int = None):
        """A WAL-mode SQLite store: the database, its -wal and -shm."""
        database, wal, shm = triple
        when = mtime if mtime is not None else self.default_mtime(path)
        self.add(path, database, when)
        self.add(path + "-wal", wal, when + 30)
        self.add(path + "-shm", shm, when + 30)


# ---------------------------------------------------------------------------------------------
# SQLite stores: built with sqlite3 in a scratch folder, made byte-stable by fileformats.

class Stores:
    def __init__(self, scratch: str):
        os.makedirs(scratch, exist_ok=True)
        self.scratch = tempfile.mkdtemp(dir=scratch)   # fresh per build: SQLite must not reopen old files
        self.count = 0

    def wal(self, schema, base, transactions=(), rng=None, check=None):
        """`check` = (query, expected rows): SQLite must read the written files back that way."""
        self.count += 1
        path = os.path.join(self.scratch, "store%d.sqlite" % self.count)
        triple = ff.wal_store(path, schema, base, transactions, rng)
        integrity, mode, rows = ff.verify_wal_store(self.scratch, *triple, check[0] if check else "SELECT 1")
        if integrity != "ok" or mode != "wal" or (check and rows != check[1]):
            raise RuntimeError("generated store does not read back: %r %r %r" % (integrity, mode, rows))
        return triple

    def plain(self, schema, base):
        self.count += 1
        database = ff.rollback_store(os.path.join(self.scratch, "store%d.sqlite" % self.count), schema, base)
        integrity, mode, _ = ff.verify_wal_store(self.scratch, database, b"", b"", "SELECT 1")
        if integrity != "ok" or mode != "delete":
            raise RuntimeError("generated store does not read back: %r %r" % (integrity, mode))
        return database


# ---------------------------------------------------------------------------------------------
# People, chats and words

CHATS = [
    # kind (c group, r room, u 1:1), name, images, videos, voice messages, files
    ("c", "大学サークル OB会", 26, 2, 6, 3),
    ("c", "Family", 8, 1, 2, 0),
    ("u", "Mom", 6, 0, 4, 0),
    ("u", "Kenji Sato", 4, 1, 0, 0),
    ("r", "Hokkaido trip 🗻", 5, 0, 0, 2),
    ("u", "Yuki", 3, 0, 1, 0),
    ("u", "Example Bank (official)", 0, 0, 0, 1),
    ("u", "Sora", 1, 0, 1, 0),
]
#: Text messages per chat (same order as CHATS): the big group dominates.
TEXT_MESSAGES = [1000, 330, 240, 150, 180, 90, 45, 45]
PEOPLE = ["Mom", "Dad", "Kenji Sato", "Yuki", "Sora", "Haruka", "Takeshi", "Aiko", "Ren", "Mei",
          "Daichi", "Example Bank", "Me"]
WORDS_EN = ("ok see you tomorrow|on my way|thanks!|lol|did you see the photos?|dinner at 7?|"
            "running late sorry|happy birthday 🎉|where are we meeting|sounds good|"
            "can you send the file again|I'll call you later|good night|the train is delayed|"
            "let's book the hotel this week|who is bringing the camera").split("|")
WORDS_JA = ("了解です|おつかれさま！|明日よろしく|写真ありがとう|今どこ？|もうすぐ着きます|"
            "また連絡します|楽しかった〜|お先に失礼します|いいね👍|来週の予定どう？|"
            "資料送りました|おやすみなさい|遅れます、すみません").split("|")


def chat_list():
    """[(chat id, kind, name, media counts...)] with LINE-style ids: u/c/r + 32 hex digits."""
    rng = area_rng("chat-ids")
    return [(kind + hex_id(rng), kind, name, images, videos, voice, files)
            for kind, name, images, videos, voice, files in CHATS]


def message_id(rng: random.Random) -> str:
    return str(rng.randrange(10 ** 17, 10 ** 18))


def phrase(rng: random.Random) -> str:
    return rng.choice(WORDS_JA if rng.random() < 0.45 else WORDS_EN)


# ---------------------------------------------------------------------------------------------
# AppDataInfo.plist

def add_app_data_info(tree: Tree):
    # Only CFBundleIdentifier, XCExecutableVersion and XCDownloadDate are confirmed (read by third-party
    # code from real downloads; XCDownloadDate as a real one writes it: the Mac's local time, a dot between
    # minutes and seconds); the full key set Xcode writes is not publicly documented,
    # so the Device* keys below are plausible guesses.
    download = time.strftime("%Y-%m-%d %H:%M.%S.000", time.gmtime(SNAPSHOT_TIME[tree.version]))
    info = {
        "CFBundleIdentifier": BUNDLE_ID,
        "XCDownloadDate": download,
        "XCExecutableVersion": APP_VERSION[tree.version],
        "DeviceArchitecture": "arm64e",
        "DeviceIdentifier": "00008110-000A1C2E3E90801E",
        "DeviceName": "QA iPhone SE",
        "DeviceVersion": "18.5",
    }
    tree.add("AppDataInfo.plist", ff.bplist(info), SNAPSHOT_TIME[tree.version])


# ---------------------------------------------------------------------------------------------
# Library/Application Support: chats, the message store, Realm, model, stickers, SDKs

def add_chats(tree: Tree, chats):
    """Per-chat media; returns {chat id: [(kind, relative path, message id)]} for the store."""
    attachments = {}
    forwarded = None
    for chat_id, kind, name, images, videos, voice, files in chats:
        rng = area_rng("chat:" + chat_id)
        base = "%s/Chats/%s" % (SUPPORT, chat_id)
        items = []
        big = chat_id == chats[0][0]
        for _ in range(images):
            mid = message_id(rng)
            data = ff.jpeg(rng, skewed(rng, 11000 if big else 8000, 3000, 48000), exif=rng.random() < 0.5)
            items.append(("image", tree.add("%s/images/%s.jpg" % (base, mid), data), mid))
        if forwarded is None and big:
            forwarded = tree.files[items[3][1]][0]
        elif forwarded is not None and name == "Family":
            # The same photo forwarded from the group: one copy per chat (duplicate content).
            mid = message_id(rng)
            items.append(("image", tree.add("%s/images/%s.jpg" % (base, mid), forwarded), mid))
        for index in range(videos):
            mid = message_id(rng)
            maker, extension = (ff.mov, "mov") if index % 2 else (ff.mp4, "mp4")
            path = "%s/videos/%s.%s" % (base, mid, extension)
            items.append(("video", tree.add(path, maker(rng, skewed(rng, 110000 if big else 45000, 30000, 200000, 0.3))), mid))
        for _ in range(voice):
            mid = message_id(rng)
            items.append(("voice", tree.add("%s/voice/%s.m4a" % (base, mid), ff.m4a(rng, skewed(rng, 9000, 3000, 30000))), mid))
        for index in range(files):
            mid = message_id(rng)
            if big and index == 0:
                data = meeting_notes_pdf()
            elif index % 2:
                data = ff.zip_stored([("photos/IMG_%04d.HEIC" % n, ff.heic(rng, 6000)) for n in range(3)])
            else:
                data = ff.pdf("Document %s" % mid, [phrase(rng) for _ in range(6)], rng, skewed(rng, 12000, 4000, 30000))
            extension = "zip" if data[:2] == b"PK" else "pdf"
            items.append(("file", tree.add("%s/files/%s.%s" % (base, mid, extension), data), mid))
        attachments[chat_id] = items
    # The big group's videos folder is marked excluded from backup.
    tree.sidecar("%s/Chats/%s/videos" % (SUPPORT, chats[0][0]),
                 [(ff.EXCLUDE_ITEM_NAME, ff.EXCLUDE_ITEM_VALUE)], debug_tag=0x2F61)
    return attachments


def meeting_notes_pdf() -> bytes:
    rng = area_rng("meeting-notes")
    return ff.pdf("Meeting notes 2025-05-28", ["OB reunion: venue, budget, photo album",
                                               "Budget: 4,000 yen per person"], rng, 16000)


MESSAGES_SCHEMA = """
CREATE TABLE ZCHAT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISGROUP INTEGER,
  ZUNREADCOUNT INTEGER, ZLASTMESSAGEDATE TIMESTAMP, ZCHATID VARCHAR, ZNAME VARCHAR, ZMEDIAFOLDER VARCHAR );
CREATE TABLE ZMEMBER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZUSERID VARCHAR,
  ZDISPLAYNAME VARCHAR );
CREATE TABLE Z_1MEMBERS ( Z_1CHATS INTEGER, Z_2MEMBERS INTEGER, PRIMARY KEY (Z_1CHATS, Z_2MEMBERS) );
CREATE TABLE ZMESSAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHAT INTEGER,
  ZSENDER INTEGER, ZCONTENTTYPE INTEGER, ZREAD INTEGER, ZDATE TIMESTAMP, ZSERVERID VARCHAR,
  ZTEXT VARCHAR, ZATTACHMENTPATH VARCHAR, ZPREVIEWIMAGE BLOB );
CREATE INDEX ZMESSAGE_ZCHAT_INDEX ON ZMESSAGE (ZCHAT);
CREATE INDEX ZMESSAGE_ZDATE_INDEX ON ZMESSAGE (ZDATE);
CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
"""


def add_message_store(tree: Tree, stores: Stores, chats, attachments):
    """A Core Data-style store (Z_ tables) with un-checkpointed messages in its -wal, and
    external blobs in .Messages_SUPPORT/_EXTERNAL_DATA as Core Data keeps them."""
    rng = area_rng("messages")
    external = []
    for _ in range(2):
        name = new_uuid(rng)
        external.append(name)
        tree.add("%s/.Messages_SUPPORT/_EXTERNAL_DATA/%s" % (SUPPORT, name), ff.jpeg(rng, skewed(rng, 20000, 9000, 40000)))
    clock = [SNAPSHOT_TIME[1] - 60 * 86400]
    serial = [0]

    def insert(connection, chat_pk, kind, text, path=None, preview=None):
        serial[0] += 1
        clock[0] += rng.randrange(20, 1800)
        connection.execute("INSERT INTO ZMESSAGE VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", (
            serial[0], 3, 1, chat_pk, rng.randrange(1, len(PEOPLE) + 1), kind, 1,
            float(clock[0] - CORE_DATA_EPOCH), message_id(rng), text, path, preview))

    def base(connection):
        for pk, person in enumerate(PEOPLE, start=1):
            connection.execute("INSERT INTO ZMEMBER VALUES (?,?,?,?,?)", (pk, 2, 1, "u" + hex_id(rng), person))
        for pk, (chat_id, kind, name, *_media) in enumerate(chats, start=1):
            connection.execute("INSERT INTO ZCHAT VALUES (?,?,?,?,?,?,?,?,?)", (
                pk, 1, 1, int(kind != "u"), rng.randrange(0, 30), float(SNAPSHOT_TIME[1] - CORE_DATA_EPOCH - pk * 3600),
                chat_id, name, "Chats/" + chat_id))
            for member in sorted(rng.sample(range(1, len(PEOPLE) + 1), 6 if kind != "u" else 2)):
                connection.execute("INSERT INTO Z_1MEMBERS VALUES (?,?)", (pk, member))
        for pk, (chat_id, *_rest) in enumerate(chats, start=1):
            for _ in range(TEXT_MESSAGES[pk - 1]):
                insert(connection, pk, 0, phrase(rng))
            for kind, path, _mid in attachments[chat_id]:
                insert(connection, pk, {"image": 1, "video": 2, "voice": 3, "file": 4}[kind], None,
                       path.split("Application Support/", 1)[1])
        for name in external:
            insert(connection, 1, 7, "https://example.com/link/" + hex_id(rng, 8), None,
                   b"\x02" + uuid.UUID(name).bytes)
        connection.execute("INSERT INTO Z_PRIMARYKEY VALUES (1,'Chat',0,?)", (len(chats),))
        connection.execute("INSERT INTO Z_PRIMARYKEY VALUES (2,'Member',0,?)", (len(PEOPLE),))
        connection.execute("INSERT INTO Z_PRIMARYKEY VALUES (3,'Message',0,?)", (serial[0],))
        metadata = ff.bplist({
            "NSPersistenceFrameworkVersion": 1341, "NSStoreType": "SQLite",
            "NSStoreModelVersionIdentifiers": [""], "_NSAutoVacuumLevel": "2",
            "NSStoreModelVersionHashes": {entity: ff.random_bytes(rng, 32) for entity in ("Chat", "Member", "Message")},
        })
        connection.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (new_uuid(rng), metadata))
        connection.execute("INSERT INTO Z_MODELCACHE VALUES (?)", (ff.random_bytes(rng, 9000),))

    def recent(batch):
        def transaction(connection):
            for _ in range(batch):
                insert(connection, 1 + rng.randrange(3), 0, phrase(rng))
            connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 3", (serial[0],))
        return transaction

    batches = (3, 1, 5, 2)
    transactions = [recent(n) for n in batches]
    expected = sum(TEXT_MESSAGES) + sum(len(items) for items in attachments.values()) + len(external) + sum(batches)
    triple = stores.wal(MESSAGES_SCHEMA, base, transactions, rng, ("SELECT count(*) FROM ZMESSAGE", [(expected,)]))
    tree.add_store(SUPPORT + "/Messages.sqlite", triple, tree.recent_mtime("Messages.sqlite", 2))


def add_realm(tree: Tree):
    rng = area_rng("realm")
    folder = SUPPORT + "/Realm"
    tree.add(folder + "/friends.realm", ff.realm(rng, 12 * 4096))
    tree.add(folder + "/friends.realm.lock", ff.random_bytes(rng, 1192))
    # friends.realm.note is a FIFO on a device; git cannot store FIFOs, so it is left out.
    # Realm's inter-process mutex and condition-variable stand-ins: empty files.
    for name in ("access_control.control.mx", "access_control.write.mx", "access_control.new_commit.cv"):
        tree.add(folder + "/friends.realm.management/" + name, b"")


def add_model(tree: Tree):
    """A re-downloadable ML model, marked with the legacy iOS 5.0.1 attribute; grows in v2."""
    rng = area_rng("model:%d" % tree.version)
    path = SUPPORT + "/Models/smart_reply_v3.tflite"
    if tree.version == 1:
        tree.add(path, ff.tflite(rng, 256 * 1024))
    else:
        tree.add(path, ff.tflite(rng, 420 * 1024), tree.recent_mtime(path, 72))
    tree.sidecar(path, [(ff.MOBILE_BACKUP_NAME, ff.MOBILE_BACKUP_VALUE)], debug_tag=0x3A07,
                 mtime=tree.default_mtime(path))


def add_stickers(tree: Tree):
    """Downloaded sticker packs: re-downloadable, kept in Application Support but the folder is
    flagged excluded (the sidecar `._Stickers` next to it)."""
    rng = area_rng("stickers")
    base = SUPPORT + "/Stickers"
    for package in (789, 11537, 11538):
        folder = "%s/packs/%d" % (base, package)
        stickers = [rng.randrange(10000000, 99999999) for _ in range(5)]
        meta = {"packageId": package, "title": {"en": "Pack %d" % package, "ja": "スタンプ %d" % package},
                "author": {"en": "Example Creators"}, "version": rng.randrange(1, 9),
                "hasAnimation": True, "stickers": [{"id": s, "width": 320, "height": 300} for s in stickers]}
        tree.add(folder + "/productInfo.meta", json.dumps(meta, ensure_ascii=False, sort_keys=True, indent=2).encode())
        tree.add(folder + "/tab_on@2x.png", ff.png(rng, 1800, 96, 74))
        tree.add(folder + "/tab_off@2x.png", ff.png(rng, 1600, 96, 74))
        for sticker in stickers:
            tree.add("%s/%d@2x.png" % (folder, sticker), ff.png(rng, skewed(rng, 4200, 1500, 9000), 320, 300))
        tree.add("%s/animation/%d@2x.png" % (folder, stickers[0]), ff.png(rng, skewed(rng, 9000, 5000, 14000), 320, 300))
    tree.sidecar(base, [(ff.EXCLUDE_ITEM_NAME, ff.EXCLUDE_ITEM_VALUE)], debug_tag=0x2E11)


MEASUREMENT_SCHEMA = """
CREATE TABLE events ( app_id TEXT NOT NULL, name TEXT NOT NULL, lifetime_count INTEGER NOT NULL,
  current_bundle_count INTEGER NOT NULL, last_fire_timestamp INTEGER NOT NULL, PRIMARY KEY (app_id, name) );
CREATE TABLE raw_events ( app_id TEXT NOT NULL, name TEXT NOT NULL, timestamp INTEGER NOT NULL,
  metadata_fingerprint INTEGER NOT NULL, data BLOB NOT NULL );
CREATE TABLE queue ( app_id TEXT NOT NULL, bundle_end_timestamp INTEGER NOT NULL, data BLOB NOT NULL );
CREATE TABLE user_attributes ( app_id TEXT NOT NULL, name TEXT NOT NULL, set_timestamp INTEGER NOT NULL,
  value BLOB, PRIMARY KEY (app_id, name) );
"""


def add_sdk_files(tree: Tree, stores: Stores):
    rng = area_rng("sdks")

    def measurement(connection):
        for name in ("app_open", "screen_view", "message_send", "sticker_send", "session_start"):
            connection.execute("INSERT INTO events VALUES (?,?,?,?,?)", (
                "1:123456789:ios:abcdef", name, rng.randrange(10, 900), rng.randrange(1, 9), SNAPSHOT_TIME[1] * 1000))
        for index in range(120):
            connection.execute("INSERT INTO raw_events VALUES (?,?,?,?,?)", (
                "1:123456789:ios:abcdef", rng.choice(("screen_view", "message_send")),
                (SNAPSHOT_TIME[1] - index * 600) * 1000, rng.getrandbits(62), ff.random_bytes(rng, rng.randrange(60, 220))))
        connection.execute("INSERT INTO user_attributes VALUES (?,?,?,?)", (
            "1:123456789:ios:abcdef", "_fot", SNAPSHOT_TIME[1] * 1000, b"\x01"))

    google = SUPPORT + "/Google/Measurement"
    tree.add(google + "/google-app-measurement.sql", stores.plain(MEASUREMENT_SCHEMA, measurement))
    tree.add(google + "/google_experimentation_database.sql", stores.plain(
        "CREATE TABLE experiments (experiment_id TEXT PRIMARY KEY, variant TEXT, payload BLOB);",
        lambda c: c.execute("INSERT INTO experiments VALUES ('exp_chat_list_v2','B',?)", (ff.random_bytes(rng, 300),))))
    tree.add(SUPPORT + "/com.crashlytics/CLSUserDefaults.plist", ff.bplist({
        "com.crashlytics.install.uuid": new_uuid(rng), "com.crashlytics.iuuid": new_uuid(rng)}))


def add_chat_backup(tree: Tree):
    """A local chat-history backup archive (1.1 MiB) in a backed-up place: it is backed up twice."""
    rng = area_rng("chat-backup")
    manifest = json.dumps({"format": 3, "created": "2025-05-30T03:00:00Z", "chats": 8}, sort_keys=True).encode()
    tree.add(SUPPORT + "/ChatBackup/chat-backup-2025-05-30.zip", ff.zip_stored([
        ("manifest.json", manifest),
        ("messages.bin", ff.random_bytes(rng, 1100 * 1024)),
    ]), 1748574000)


SYNC_SCHEMA = """
CREATE TABLE sync_state (key TEXT PRIMARY KEY, value BLOB, updated INTEGER);
CREATE TABLE pending_ops (id INTEGER PRIMARY KEY, op TEXT, payload BLOB);
"""


def add_sync_stores(tree: Tree, stores: Stores):
    """A small store whose -wal is far bigger than the database (never checkpointed), and a
    rollback journal left without its database."""
    rng = area_rng("sync")

    def base(connection):
        connection.execute("INSERT INTO sync_state VALUES ('revision', ?, 0)", (struct.pack(">Q", 884000),))
        connection.execute("INSERT INTO sync_state VALUES ('cursor', ?, 0)", (ff.random_bytes(rng, 48),))

    def bump(revision):
        def transaction(connection):
            connection.execute("UPDATE sync_state SET value = ?, updated = ? WHERE key = 'revision'",
                               (struct.pack(">Q", 884000 + revision), SNAPSHOT_TIME[1] - 3000 + revision))
            connection.execute("INSERT OR REPLACE INTO pending_ops VALUES (?,?,?)",
                               (revision % 5, "ack", ff.random_bytes(rng, 40)))
        return transaction

    triple = stores.wal(SYNC_SCHEMA, base, [bump(n) for n in range(1, 16)], rng,
                        ("SELECT count(*) FROM pending_ops", [(5,)]))
    tree.add_store(SUPPORT + "/Sync/sync-state.sqlite", triple)
    tree.add(SUPPORT + "/Sync/contacts.sqlite-journal", ff.sqlite_journal(rng, 2 * 4096 + 512))


def chat_index_store(stores: Stores):
    """The search index; sits in Documents in v1 (misplaced), moved to Application Support in v2."""
    rng = area_rng("chat-index")

    def base(connection):
        for row in range(1, 700):
            connection.execute("INSERT INTO search_tokens VALUES (?,?,?)", (row, "c" + hex_id(rng, 8), phrase(rng)))

    def more(connection):
        for row in range(700, 760):
            connection.execute("INSERT INTO search_tokens VALUES (?,?,?)", (row, "c" + hex_id(rng, 8), phrase(rng)))

    return stores.wal("CREATE TABLE search_tokens (message_id INTEGER PRIMARY KEY, chat TEXT, tokens TEXT);",
                      base, [more], rng, ("SELECT count(*) FROM search_tokens", [(759,)]))


# ---------------------------------------------------------------------------------------------
# Documents (what users should see, plus the misplaced files)

def chat_export(rng: random.Random, title: str, people, lines: int, japanese: bool) -> bytes:
    header = ("[LINE] %sのトーク履歴\n保存日時：2025/05/31 21:04\n\n" % title if japanese
              else "[LINE] Chat history with %s\nSaved on: 2025/05/31 21:04\n\n" % title)
    out, day = [header], 0
    for index in range(lines):
        if index % 25 == 0:
            day += 1
            out.append("\n2025/05/%02d(%s)\n" % (day, "月火水木金土日"[day % 7] if japanese else
                                                   ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")[day % 7]))
        out.append("%02d:%02d\t%s\t%s\n" % (8 + index % 14, rng.randrange(60), rng.choice(people), phrase(rng)))
    return "".join(out).encode("utf-8")


def log_lines(rng: random.Random, start: int, count: int, level_pool) -> bytes:
    subsystems = ("Sync", "Push", "Media", "Store", "Network", "UI", "Sticker")
    out, clock = [], start
    for _ in range(count):
        clock += rng.randrange(1, 90)
        ms = rng.randrange(1000)
        stamp = "%s.%03d" % (_utc(clock), ms)
        level = rng.choice(level_pool)
        subsystem = rng.choice(subsystems)
        event = rng.choice(("fetched %d operations (rev %d)" % (rng.randrange(1, 40), 884000 + rng.randrange(999)),
                            "GET https://api.example.com/v3/chats/%s 200 %dms" % (hex_id(rng, 8), rng.randrange(20, 900)),
                            "thumbnail decode %dx%d in %dms" % (rng.choice((240, 480)), rng.choice((240, 360)), rng.randrange(2, 40)),
                            "checkpoint skipped: readers active",
                            "socket reconnect attempt %d" % rng.randrange(1, 5)))
        out.append("%s [%s] [%s] %s\n" % (stamp, level, subsystem, event))
    return "".join(out).encode()


def _utc(seconds: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(seconds))


def add_documents(tree: Tree, chat_index):
    rng = area_rng("documents")
    exports = DOCS + "/Exports"
    tree.add(exports + "/Chat with Family.txt", chat_export(rng, "Family", ["Mom", "Dad", "Me"], 160, False))
    tree.add(exports + "/トーク履歴 大学サークルOB会.txt",
             chat_export(rng, "大学サークル OB会", ["Haruka", "Takeshi", "Aiko", "Me"], 220, True))
    received = DOCS + "/Received Files"
    invoice = tree.add(received + "/Invoice-2025-05.pdf", ff.pdf(
        "Invoice 2025-05", ["Example Mobile Inc.", "Amount due: 3,280 yen"], rng, 26000))
    tree.add(received + "/boarding-pass-HND-CTS.pdf", ff.pdf(
        "Boarding pass HND-CTS", ["Flight EX 57", "Seat 23A", "Gate 14"], rng, 9000))
    # Saved from the group chat: the same bytes as Chats/<group>/files/<id>.pdf.
    tree.add(received + "/Meeting notes 2025-05-28.pdf", meeting_notes_pdf())
    tree.sidecar(invoice, [(ff.LAST_USED_DATE_NAME, ff.last_used_date_value(1748300000, 250000000))], debug_tag=0x1B02)

    # Misplaced in Documents (which users can see): a database, a log, a lock file, a dotfile.
    if tree.version == 1:
        tree.add_store(DOCS + "/chat-index.sqlite", chat_index)
        tree.add(DOCS + "/debug.log", log_lines(area_rng("debug-log"), SNAPSHOT_TIME[1] - 5 * 86400, 260, ("DEBUG", "DEBUG", "INFO")))
    else:
        tree.add_store(SUPPORT + "/Search/chat-index.sqlite", chat_index, tree.recent_mtime("chat-index", 24 * 13))
    tree.add(DOCS + "/sync.lock", b"pid=4242\n")
    tree.add(DOCS + "/.sync_state.json", json.dumps(
        {"lastRevision": 884213, "device": new_uuid(rng), "pendingUploads": 2}, sort_keys=True).encode())


# ---------------------------------------------------------------------------------------------
# Library: Preferences, the stray JSON, system-managed folders

def add_preferences(tree: Tree):
    rng = area_rng("preferences")
    folder = LIB + "/Preferences"
    catalog = [{"packageId": 10000 + n, "title": "Sticker pack %d" % n, "author": "Creator %d" % rng.randrange(400),
                "price": rng.choice((0, 120, 240, 370)), "thumbnail": "https://stickers.example.com/%d/tab.png" % (10000 + n),
                "tags": rng.sample(["cute", "cat", "dog", "work", "love", "anime", "seasonal", "food"], 3)}
               for n in range(1500)]
    # An app that keeps a downloaded catalog in UserDefaults: an unusually large preferences plist.
    prefs = {
        "LastLaunchVersion": APP_VERSION[tree.version],
        "OnboardingCompleted": True,
        "NotificationSound": "chat_default",
        "RecentStickers": [rng.randrange(10000000, 99999999) for _ in range(60)],
        "ChatDrafts": {"c" + hex_id(rng): phrase(rng) for _ in range(5)},
        "StickerCatalogCache": json.dumps(catalog, sort_keys=True, separators=(",", ":")).encode(),
        "StickerCatalogETag": hex_id(rng, 16),
    }
    tree.add(folder + "/%s.plist" % BUNDLE_ID, ff.bplist(prefs), tree.recent_mtime("prefs", 6))
    tree.add(folder + "/%s.plist" % GROUP_ID, ff.bplist({
        "WidgetUnreadCount": 3, "LastSelectedChatID": "c" + hex_id(rng), "SharedAccessTokenExpiry": SNAPSHOT_TIME[1] + 86400}))
    tree.add(folder + "/com.google.gmp.measurement.plist", ff.bplist({
        "firstOpenTime": SNAPSHOT_TIME[1] - 400 * 86400, "lastDeletedEventsTime": SNAPSHOT_TIME[1] - 86400}))


def add_library_misc(tree: Tree):
    rng = area_rng("library-misc")
    # A stray JSON file directly in Library/.
    tree.add(LIB + "/feature_flags.json", json.dumps(
        {"chatListV2": True, "voiceTranscription": False, "stickerPreviewPrefetch": 24}, sort_keys=True, indent=2).encode())

    scene = "%s/SplashBoard/Snapshots/sceneID:%s-default" % (LIB, BUNDLE_ID)
    snapshot = new_uuid(rng)
    tree.add("%s/%s@2x.ktx" % (scene, snapshot), ff.ktx(rng, 750, 1334))
    tree.add("%s/downscaled/%s@2x.ktx" % (scene, snapshot), ff.ktx(rng, 375, 667))

    state = "%s/Saved Application State/%s.savedState" % (LIB, BUNDLE_ID)
    session = new_uuid(rng)
    tree.add(state + "/KnownSceneSessions/data.data", ff.keyed_archive("NSMutableSet", {"session": session}))
    tree.add("%s/%s/data.data" % (state, session), ff.keyed_archive("UISceneSession", {
        "identifier": session, "role": "UIWindowSceneSessionRoleApplication"}))
    tree.add("%s/%s/userInfo.data" % (state, session), ff.keyed_archive("NSDictionary", {"selectedTab": "chats"}))

    now = SNAPSHOT_TIME[1]
    tree.add("%s/Cookies/%s.binarycookies" % (LIB, BUNDLE_ID), ff.binarycookies([
        (".example.com", "session", "/", hex_id(rng, 40), 5, now + 30 * 86400, now - 86400),
        ("api.example.com", "csrftoken", "/", hex_id(rng, 32), 1, now + 7 * 86400, now - 3600),
        (".ads.example.net", "uid", "/", hex_id(rng, 16), 0, now + 365 * 86400, now - 10 * 86400),
    ]))


HTTP_STORAGE_SCHEMA = """
CREATE TABLE hsts (host TEXT PRIMARY KEY, include_subdomains INTEGER, expiry REAL);
CREATE TABLE alt_services (origin TEXT, protocol TEXT, host TEXT, port INTEGER, expiry REAL);
"""

URL_CACHE_SCHEMA = """
CREATE TABLE cfurl_cache_schema_version(schema_version INTEGER);
CREATE TABLE cfurl_cache_response(entry_ID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, version INTEGER,
  hash_value INTEGER, storage_policy INTEGER, request_key TEXT UNIQUE, time_stamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  partition TEXT);
CREATE TABLE cfurl_cache_blob_data(entry_ID INTEGER PRIMARY KEY, response_object BLOB, request_object BLOB,
  proto_props BLOB, user_info BLOB);
CREATE TABLE cfurl_cache_receiver_data(entry_ID INTEGER PRIMARY KEY, isDataOnFS INTEGER, receiver_data BLOB);
CREATE INDEX request_key_index ON cfurl_cache_response(request_key);
CREATE INDEX time_stamp_index ON cfurl_cache_response(time_stamp);
CREATE INDEX proto_props_index ON cfurl_cache_blob_data(entry_ID);
CREATE INDEX receiver_data_index ON cfurl_cache_receiver_data(entry_ID);
"""


def add_network_stores(tree: Tree, stores: Stores):
    """NSURLCache (Caches/<id>/Cache.db + fsCachedData), HTTPStorages, WebKit website data."""
    rng = area_rng("network")
    cache = "%s/%s" % (CACHES, BUNDLE_ID)
    bodies = []
    for index in range(6):
        name = new_uuid(rng)
        if index % 3 == 0:
            body = json.dumps({"chats": [{"id": "c" + hex_id(rng), "unread": rng.randrange(9)} for _ in range(60)]}).encode()
        else:
            body = ff.jpeg(rng, skewed(rng, 9000, 5000, 20000))
        bodies.append((name, body))
        tree.add(cache + "/fsCachedData/" + name, body)

    def response(connection, entry, url, on_disk, inline):
        connection.execute("INSERT INTO cfurl_cache_response VALUES (?,?,?,?,?,?,?)", (
            entry, 0, rng.getrandbits(31), 0, url, "2025-05-31 23:%02d:%02d" % (entry % 60, entry * 7 % 60), None))
        headers = ff.bplist({"Array": [url, 200, {"Content-Type": "application/json", "Cache-Control": "max-age=600"}]})
        connection.execute("INSERT INTO cfurl_cache_blob_data VALUES (?,?,?,?,?)", (
            entry, headers, ff.bplist({"Array": [url, "GET"]}), None, None))
        connection.execute("INSERT INTO cfurl_cache_receiver_data VALUES (?,?,?)", (entry, int(on_disk), inline))

    def base(connection):
        connection.execute("INSERT INTO cfurl_cache_schema_version VALUES (202)")
        for entry, (name, _body) in enumerate(bodies, start=1):
            response(connection, entry, "https://api.example.com/v3/res/%d" % entry, True, name.encode())
        for entry in range(len(bodies) + 1, len(bodies) + 25):
            response(connection, entry, "https://api.example.com/v3/small/%d" % entry, False, ff.random_bytes(rng, rng.randrange(100, 900)))

    def later(connection):
        response(connection, 40, "https://api.example.com/v3/profile", False, ff.random_bytes(rng, 700))

    tree.add_store(cache + "/Cache.db", stores.wal(URL_CACHE_SCHEMA, base, [later], rng,
                                                   ("SELECT count(*) FROM cfurl_cache_response", [(31,)])))

    def hsts(connection):
        for host in ("example.com", "api.example.com", "stickers.example.com", "obs.example.net"):
            connection.execute("INSERT INTO hsts VALUES (?,?,?)", (host, 1, float(SNAPSHOT_TIME[1] + 180 * 86400)))

    tree.add_store("%s/HTTPStorages/%s/httpstorages.sqlite" % (LIB, BUNDLE_ID), stores.wal(
        HTTP_STORAGE_SCHEMA, hsts, [lambda c: c.execute(
            "INSERT INTO alt_services VALUES ('https://api.example.com','h3','api.example.com',443,?)",
            (float(SNAPSHOT_TIME[1] + 86400),))], rng, ("SELECT count(*) FROM hsts", [(4,)])))

    website = "%s/WebKit/%s/WebsiteData" % (LIB, BUNDLE_ID)
    tree.add(website + "/LocalStorage/https_notice.example.com_0.localstorage", stores.plain(
        "CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB NOT NULL ON CONFLICT FAIL);",
        lambda c: [c.execute("INSERT INTO ItemTable VALUES (?,?)", ("notice.read.%d" % n, "1".encode("utf-16-le")))
                   for n in range(40)]))
    tree.add(website + "/ResourceLoadStatistics/observations.db", stores.plain(
        "CREATE TABLE ObservedDomains (domainID INTEGER PRIMARY KEY, registrableDomain TEXT NOT NULL UNIQUE,"
        " lastSeen REAL NOT NULL, hadUserInteraction INTEGER NOT NULL);",
        lambda c: [c.execute("INSERT INTO ObservedDomains VALUES (?,?,?,?)", (n, d, float(SNAPSHOT_TIME[1]), n % 2))
                   for n, d in enumerate(("example.com", "example.net", "cdn.example.org"), start=1)]))


def add_caches(tree: Tree):
    rng = area_rng("caches")
    kingfisher = CACHES + "/com.onevcat.Kingfisher.ImageCache.default"
    makers = (lambda r, s: ff.jpeg(r, s), lambda r, s: ff.png(r, s, 160, 160), ff.webp)
    for index in range(14):
        name = hex_id(rng)   # Kingfisher names files by the MD5 of the cache key
        tree.add(kingfisher + "/" + name, makers[index % 3](rng, skewed(rng, 6500, 1200, 20000)))

    logs = CACHES + "/logs"
    tree.add(logs + "/app.log", log_lines(area_rng("app-log:%d" % tree.version), SNAPSHOT_TIME[tree.version] - 86400,
                                          520, ("INFO", "INFO", "INFO", "WARN", "ERROR")), SNAPSHOT_TIME[tree.version] - 120)
    tree.add(logs + "/app-2025-05-31.log.gz", ff.gzip_stored(
        log_lines(area_rng("old-log"), SNAPSHOT_TIME[1] - 2 * 86400, 400, ("INFO", "WARN"))), SNAPSHOT_TIME[1] - 86400)
    # Not something Xcode is known to export: a symlink, so the scanner's "never follow" is exercised.
    tree.link(logs + "/app-latest.log", "app.log", SNAPSHOT_TIME[tree.version] - 120)

    crashlytics = "%s/com.crashlytics.data/%s/v5" % (CACHES, BUNDLE_ID)
    tree.add(crashlytics + "/settings/settings.json", json.dumps(
        {"settings_version": 3, "cache_duration": 86400, "features": {"collect_reports": True}}, sort_keys=True).encode())
    report = hex_id(rng)
    tree.add("%s/reports/prepared/%s/metadata.clsrecord" % (crashlytics, report), json.dumps(
        {"identity": {"generator": "Crashlytics iOS SDK/10.28.0", "display_version": APP_VERSION[1]}}, sort_keys=True).encode())
    tree.add("%s/reports/prepared/%s/sdk.log" % (crashlytics, report),
             log_lines(rng, SNAPSHOT_TIME[1] - 4 * 86400, 30, ("INFO", "DEBUG")))

    if tree.version >= 2:
        # v2 adds a video-thumbnail cache.
        thumbs = area_rng("video-thumbnails")
        for _ in range(8):
            path = "%s/VideoThumbnails/%s.jpg" % (CACHES, new_uuid(thumbs))
            tree.add(path, ff.jpeg(thumbs, skewed(thumbs, 7000, 3000, 15000)), tree.recent_mtime(path, 72))


# ---------------------------------------------------------------------------------------------
# tmp and SystemData

def add_tmp(tree: Tree):
    rng = area_rng("tmp")
    uploads = TMP + "/uploads"
    tree.add("%s/%s.mp4" % (uploads, new_uuid(rng)), ff.mp4(rng, 96000), SNAPSHOT_TIME[1] - 3 * 86400)
    tree.add("%s/%s.jpg" % (uploads, new_uuid(rng)), ff.jpeg(rng, 41000), SNAPSHOT_TIME[1] - 3 * 86400)
    # A sidecar whose file is gone (the upload was cleaned up, its `._` twin was not).
    tree.add("%s/._%s.heic" % (uploads, new_uuid(rng)), ff.appledouble(
        [(ff.LAST_USED_DATE_NAME, ff.last_used_date_value(SNAPSHOT_TIME[1] - 3 * 86400))], 0x4C10))

    saving = TMP + "/(A Document Being Saved By ChatApp)"
    tree.add(saving + "/Chat with Family.txt", chat_export(rng, "Family", ["Mom", "Me"], 40, False)[:2048])

    # An interrupted rename-then-delete: a deleted chat's folder moved into tmp, half removed.
    trash = "%s/.trash-%s/%s" % (TMP, new_uuid(rng), "u" + hex_id(rng))
    for _ in range(5):
        tree.add("%s/images/%s.jpg" % (trash, message_id(rng)), ff.jpeg(rng, skewed(rng, 8000, 3000, 20000)),
                 SNAPSHOT_TIME[1] - 9 * 86400)
    tree.add("%s/voice/%s.m4a" % (trash, message_id(rng)), ff.m4a(rng, 7000), SNAPSHOT_TIME[1] - 9 * 86400)


def add_system_data(tree: Tree):
    """WidgetKit timelines (system-managed, not backed up). The inner layout is illustrative."""
    rng = area_rng("system-data")
    chrono = "AppData/SystemData/com.apple.chrono"
    widget = "%s/timelines/%s.ChatWidgets/UnreadCountWidget" % (chrono, BUNDLE_ID)
    tree.add(widget + "/timeline.plist", ff.keyed_archive("CHSTimeline", {
        "kind": "UnreadCountWidget", "entries": 3, "relevance": 0.5}))
    tree.add("%s/placeholders/%s.ChatWidgets/UnreadCountWidget-systemSmall.png" % (chrono, BUNDLE_ID),
             ff.png(rng, 5200, 338, 338))


# ---------------------------------------------------------------------------------------------
# Assembly, writing, checking

def build(version: int, scratch: str) -> Tree:
    tree = Tree(version)
    stores = Stores(scratch)
    chats = chat_list()
    add_app_data_info(tree)
    attachments = add_chats(tree, chats)
    add_message_store(tree, stores, chats, attachments)
    add_realm(tree)
    add_model(tree)
    add_stickers(tree)
    add_sdk_files(tree, stores)
    add_chat_backup(tree)
    add_sync_stores(tree, stores)
    add_documents(tree, chat_index_store(stores))
    add_preferences(tree)
    add_library_misc(tree)
    add_network_stores(tree, stores)
    add_caches(tree)
    add_tmp(tree)
    add_system_data(tree)
    return tree


def write(tree: Tree, out: str):
    if os.path.lexists(out):
        if not out.rstrip("/").endswith(".xcappdata"):
            raise SystemExit("refusing to delete %s: not an .xcappdata folder" % out)
        shutil.rmtree(out)
    os.makedirs(out)
    entries = sorted(list(tree.files) + list(tree.links))
    for path in entries:
        full = os.path.join(out, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if path in tree.links:
            os.symlink(tree.links[path][0], full)
        else:
            with open(full, "wb") as handle:
                handle.write(tree.files[path][0])
            os.chmod(full, 0o644)
    # Times last: files and links, then folders deepest first (a folder's time = its newest child).
    folder_times = {}
    for path in entries:
        mtime = tree.links[path][1] if path in tree.links else tree.files[path][1]
        os.utime(os.path.join(out, path), (mtime, mtime), follow_symlinks=False)
        parent = os.path.dirname(path)
        while parent:
            folder_times[parent] = max(folder_times.get(parent, 0), mtime)
            parent = os.path.dirname(parent)
    for folder in sorted(folder_times, key=lambda p: -p.count("/")):
        os.utime(os.path.join(out, folder), (folder_times[folder],) * 2)
    os.utime(out, (SNAPSHOT_TIME[tree.version],) * 2)


def snapshot(root: str) -> dict:
    """Relative path -> ("dir",) | ("file", bytes) | ("link", target), not following links."""
    found = {}
    for folder, folders, files in os.walk(root):
        relative = os.path.relpath(folder, root)
        for name in folders + files:
            path = os.path.normpath(os.path.join(relative, name))
            full = os.path.join(folder, name)
            if os.path.islink(full):
                found[path] = ("link", os.readlink(full))
            elif os.path.isdir(full):
                found[path] = ("dir",)
            else:
                with open(full, "rb") as handle:
                    found[path] = ("file", handle.read())
    return found


def compare(expected_root: str, actual_root: str) -> list:
    expected, actual = snapshot(expected_root), snapshot(actual_root)
    problems = []
    for path in sorted(set(expected) | set(actual)):
        if path not in actual:
            problems.append("missing from %s: %s" % (actual_root, path))
        elif path not in expected:
            problems.append("not generated but present: %s" % path)
        elif expected[path] != actual[path]:
            hint = ""
            if path.endswith((".sqlite", ".db", ".sql", ".localstorage")):
                hint = " (SQLite %s here; page layouts can differ between SQLite versions)" % sqlite3.sqlite_version
            problems.append("content differs: %s%s" % (path, hint))
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", type=int, choices=sorted(OUTPUT_NAMES), action="append",
                        help="which container version to generate (default: all)")
    parser.add_argument("--out", help="output folder (only with a single --version)")
    parser.add_argument("--check", action="store_true",
                        help="regenerate into a temporary folder and compare with the committed trees")
    args = parser.parse_args(argv)
    versions = args.version or sorted(OUTPUT_NAMES)
    if args.out and len(versions) != 1:
        parser.error("--out needs exactly one --version")

    with tempfile.TemporaryDirectory(prefix="make_sample-") as scratch:
        problems = []
        for version in versions:
            committed = args.out or os.path.join(SAMPLES, OUTPUT_NAMES[version])
            tree = build(version, os.path.join(scratch, "stores"))
            if args.check:
                generated = os.path.join(scratch, OUTPUT_NAMES[version])
                write(tree, generated)
                found = compare(generated, committed)
                problems += found
                print("%s: %s" % (committed, "identical" if not found else "%d difference(s)" % len(found)))
            else:
                write(tree, committed)
                size = sum(len(data) for data, _ in tree.files.values())
                print("wrote %s: %d files, %d links, %d bytes" % (committed, len(tree.files), len(tree.links), size))
        for problem in problems[:50]:
            print("  " + problem, file=sys.stderr)
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
