/// A Python function for the tests' scripts: `wal_only_store(path)` makes `path` a WAL store whose one row
/// (`ZUSER.ZPASSWORD` `hunter2hunter2`) is only in its `-wal`. It checkpoints the empty table, writes the row, and
/// copies both files aside before closing (closing would checkpoint the row into the store), then puts them back.
let walOnlyStorePython = """
    def wal_only_store(path):
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, ZNAME TEXT, ZPASSWORD TEXT)")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("INSERT INTO ZUSER VALUES (1, 'alice', 'hunter2hunter2')")
        for name in ("", "-wal"): shutil.copyfile(path + name, path + name + ".keep")
        db.close()
        for name in ("", "-wal"): os.replace(path + name + ".keep", path + name)
        if os.path.exists(path + "-shm"): os.remove(path + "-shm")
    """
