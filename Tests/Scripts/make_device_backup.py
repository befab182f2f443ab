#!/usr/bin/env python3
"""Writes a synthetic, unencrypted iOS device backup in the real format (Finder, iTunes, idevicebackup2), for tests.

    make_device_backup.py OUT SPEC.json

OUT is created. SPEC describes the backup:

    {"records": [{"domain": "AppDomain-com.example.app", "path": "Documents/a.txt", "type": "f",
                  "size": 5, "mtime": 1700000000, "mode": 420, "content": "hello", "target": null}, ...],
     "realworld": {"listing": "ios14-device-backup.tsv.gz", "apps": ["ch.icoaching.typewise"]},
                                    # add these apps' AppDomain records from a real backup's listing ("all": every app)
     "applications": {"com.example.app": {"GroupContainers": ["group.x"], "Plugins": ["com.example.app.widget"]}},
     "productVersion": "14.3", "encrypted": false, "wal": false, "snapshotState": "finished"}

`type` is f (file), d (directory) or l (symbolic link, `target` its destination). `content` (a string) is written
as the file's content; without it a file's content is `size` zero bytes, and "content": null leaves the content
file out (a backup copied without its content folders). Every domain gets its root record (relativePath "").

Format (as iOS 10 and later write it): Manifest.db holds
`Files(fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB)` with fileID =
sha1("domain-relativePath"), flags 1 file / 2 directory / 4 symlink, and file = an NSKeyedArchiver binary plist of an
MBFile; contents live at <fileID[:2]>/<fileID>. Manifest.plist, Info.plist and Status.plist sit beside it.
Prints a JSON summary of what it wrote (per domain: files and bytes), the truth tests compare against.
"""
import datetime
import gzip
import hashlib
import json
import os
import plistlib
import sqlite3
import sys

TYPE_FLAGS = {'f': 1, 'd': 2, 'l': 4}
TYPE_MODE = {'f': 0o100000, 'd': 0o040000, 'l': 0o120000}
BACKUP_DATE = datetime.datetime(2021, 5, 20, 18, 44, 5)  # UTC (plistlib writes naive datetimes as UTC)


def mbfile_archive(record):
    """The NSKeyedArchiver binary plist of an MBFile: $top.root -> the MBFile dict, strings and the class by UID."""
    objects = ['$null']

    def add(value):
        objects.append(value)
        return plistlib.UID(len(objects) - 1)

    mbfile = {}
    root = add(mbfile)
    kind = record['type']
    mbfile.update({
        'Size': record.get('size', 0) if kind != 'd' else 0,
        'Mode': TYPE_MODE[kind] | record.get('mode', 0o755 if kind == 'd' else 0o644),
        'LastModified': record.get('mtime', 1700000000),
        'Birth': record.get('mtime', 1700000000),
        'LastStatusChange': record.get('mtime', 1700000000),
        'UserID': 501, 'GroupID': 501, 'InodeNumber': 12345, 'Flags': 0, 'ProtectionClass': record.get('protectionClass', 3),
        'RelativePath': add(record['path']),
    })
    if kind == 'l':
        mbfile['Target'] = add(record['target'])
    mbfile['$class'] = add({'$classname': 'MBFile', '$classes': ['MBFile', 'NSObject']})
    return plistlib.dumps({'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': root}, '$objects': objects},
                          fmt=plistlib.FMT_BINARY)


def realworld_records(listing_path, apps):
    """The AppDomain records of the chosen apps in a real backup's listing (the real-world corpus's iOS 14.3 one,
    outside the repository; sizes from its manifest)."""
    records = []
    with gzip.open(listing_path, 'rt', encoding='utf-8') as listing:
        for line in listing:
            if line.startswith('#'):
                continue
            app, path, kind, size, mtime, mode, target = line.rstrip('\n').split('\t')
            if apps == 'all' or app in apps:
                records.append({'domain': 'AppDomain-' + app, 'path': path, 'type': kind, 'size': int(size),
                                'mtime': int(mtime), 'mode': int(mode, 8), 'target': target or None})
    return records


def write_backup(out, spec):
    records = list(spec.get('records', []))
    real = spec.get('realworld')
    if real:
        records += realworld_records(real['listing'], real['apps'] if real['apps'] == 'all' else set(real['apps']))
    for record in records:
        if record.get('content') is not None and 'size' not in record:
            record['size'] = len(record['content'].encode('utf-8'))
    for domain in sorted({record['domain'] for record in records}):
        if not any(record['domain'] == domain and record['path'] == '' for record in records):
            records.append({'domain': domain, 'path': '', 'type': 'd'})
    os.makedirs(out)
    database = sqlite3.connect(os.path.join(out, 'Manifest.db'))
    database.executescript("""
        CREATE TABLE Files (fileID TEXT PRIMARY KEY, domain TEXT, relativePath TEXT, flags INTEGER, file BLOB);
        CREATE INDEX FilesDomainIdx ON Files(domain);
        CREATE INDEX FilesRelativePathIdx ON Files(relativePath);
        CREATE INDEX FilesFlagsIdx ON Files(flags);
        CREATE TABLE Properties (key TEXT PRIMARY KEY, value BLOB);
    """)
    summary = {}
    for record in records:
        file_id = hashlib.sha1(f"{record['domain']}-{record['path']}".encode('utf-8')).hexdigest()
        database.execute('INSERT INTO Files VALUES (?, ?, ?, ?, ?)',
                         (file_id, record['domain'], record['path'], TYPE_FLAGS[record['type']], mbfile_archive(record)))
        totals = summary.setdefault(record['domain'], {'files': 0, 'bytes': 0, 'directories': 0})
        if record['type'] == 'd':
            totals['directories'] += 1
            continue
        totals['files'] += 1
        totals['bytes'] += record.get('size', 0)
        if record['type'] == 'f' and not ('content' in record and record['content'] is None):
            os.makedirs(os.path.join(out, file_id[:2]), exist_ok=True)
            content = record['content'].encode('utf-8') if 'content' in record else bytes(record.get('size', 0))
            with open(os.path.join(out, file_id[:2], file_id), 'wb') as handle:
                handle.write(content)
    database.commit()
    if spec.get('wal'):
        # A WAL database leaves Manifest.db-wal (and -shm) beside it while a connection is open; copying the folder
        # then copies them too. Keep a transaction's pages in the -wal: the reader must not checkpoint or touch it.
        database.execute('PRAGMA journal_mode=WAL')
        database.execute('PRAGMA wal_autocheckpoint=0')
        database.execute("INSERT INTO Properties VALUES ('note', x'00')")
        database.commit()
        with open(os.path.join(out, 'Manifest.db-wal'), 'rb') as wal:
            wal_bytes = wal.read()
        shm_path = os.path.join(out, 'Manifest.db-shm')
        shm_bytes = open(shm_path, 'rb').read() if os.path.exists(shm_path) else None
        database.close()
        # Closing checkpoints and deletes the -wal: put the copy back as a real backup folder would hold it.
        with open(os.path.join(out, 'Manifest.db-wal'), 'wb') as wal:
            wal.write(wal_bytes)
        if shm_bytes is not None:
            with open(shm_path, 'wb') as shm:
                shm.write(shm_bytes)
    else:
        database.close()

    version = spec.get('productVersion', '14.3')
    applications = {app: dict({'CFBundleIdentifier': app, 'CFBundleVersion': '1', 'ContainerContentClass': 'Data/Application',
                               'Path': f'/private/var/containers/Bundle/Application/{app}.app'},
                              **{key: [{'CFBundleIdentifier': value} for value in values] for key, values in extra.items()})
                    for app, extra in spec.get('applications', {}).items()}
    manifest = {'Version': '10.0', 'Date': BACKUP_DATE, 'SystemDomainsVersion': '24.0', 'WasPasscodeSet': False,
                'IsEncrypted': bool(spec.get('encrypted', False)), 'Applications': applications,
                'Lockdown': {'ProductVersion': version, 'ProductType': 'iPhone9,4', 'BuildVersion': '18C66',
                             'UniqueDeviceID': '0' * 40, 'SerialNumber': 'TESTSERIAL', 'DeviceName': 'Test iPhone'}}
    if spec.get('encrypted'):
        manifest['BackupKeyBag'] = b'\x00' * 64
        manifest['ManifestKey'] = b'\x00' * 44
    with open(os.path.join(out, 'Manifest.plist'), 'wb') as handle:
        plistlib.dump(manifest, handle, fmt=plistlib.FMT_BINARY)
    with open(os.path.join(out, 'Status.plist'), 'wb') as handle:
        plistlib.dump({'IsFullBackup': False, 'Version': '3.3', 'UUID': 'TEST-UUID', 'Date': BACKUP_DATE,
                       'BackupState': 'new', 'SnapshotState': spec.get('snapshotState', 'finished')}, handle, fmt=plistlib.FMT_BINARY)
    with open(os.path.join(out, 'Info.plist'), 'wb') as handle:
        plistlib.dump({'Device Name': 'Test iPhone', 'Display Name': 'Test iPhone', 'Product Version': version,
                       'Last Backup Date': BACKUP_DATE, 'Target Type': 'Device'}, handle, fmt=plistlib.FMT_XML)
    return summary


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[2]) as handle:
        written = write_backup(sys.argv[1], json.load(handle))
    print(json.dumps(written, sort_keys=True))
