#!/usr/bin/env python3
"""Writes a CoreSimulator device set laid out as Xcode writes it, for tests.

    make_device_set.py OUT SPEC.json

OUT is created. SPEC:

    {"devices": [{"udid": "...", "name": "iPhone 15", "runtime": "iOS-17-5", "deviceType": "iPhone-15",
                  "state": 3, "plist": "binary" | "xml",
                  "apps": [{"id": "com.example.chat", "executable": "Chat",
                            "entitlements": "section" | "signature" | "fat" | "xcent" | null,
                            "groups": ["group.com.example.chat"],
                            "extensions": [{"id": "com.example.chat.widget", "executable": "Widget",
                                            "entitlements": "section", "groups": [...], "data": {...}}],
                            "data": {"Documents/a.txt": "hello"} | null,
                            "bundleFiles": {"Assets.car": 5000}}],
                  "system": [{"id": "com.apple.mobilesafari", "data": {...}}],
                  "groups": {"group.com.example.chat": {"Library/Caches/c.db": 3000}},
                  "plugins": {"com.other.widget": {"a": 1}},     # extension data containers no app here ships
                  "folder": "UDID.bak",                           # the folder's name, when not the UDID
                  "links": {"data": "/elsewhere"},                # paths in the device folder made symbolic links
                  "legacyApps": [{"id": "com.example.old", "name": "Old", "data": {"Documents/a": "x"}}]}],
     "bulk": {"count": 10050, "runtime": "iOS-17-5"},      # optional: that many more bare devices
     "realMetadata": {"path": "real.plist", "device": 0}}   # optional: a real metadata plist for one more app

An app may have "bundleLinks": {"PlugIns": "/elsewhere"}: paths in its .app made symbolic links. A legacy app
(iOS 7-era runtimes) is `data/Applications/<UUID>/<name>.app` (Info.plist with CFBundleIdentifier) beside its
Documents, Library and tmp, with no container metadata. The output is keyed by the device's folder name.

File values are a string (the content) or a number (that many bytes). Every container gets
`.com.apple.mobile_container_manager.metadata.plist` (binary, MCMMetadataIdentifier, ContentClass, UUID,
Persona) in a folder named by a fresh UUID; a device's `device.plist` holds UDID, name, runtime,
deviceType and state (3 booted, 1 shut down). Executables are minimal 64-bit Mach-O files whose
entitlements sit where real builds put them: the `__TEXT,__entitlements` section (simulator builds),
the code signature's entitlements blob (device builds), either inside a fat binary, or an `.xcent` file.
"""
import json
import os
import plistlib
import shutil
import struct
import sys
import uuid


def write_file(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(value.encode() if isinstance(value, str) else b"\0" * value)


def container(parent, identifier, content_class):
    folder = os.path.join(parent, str(uuid.uuid4()).upper())
    os.makedirs(folder)
    metadata = {"MCMMetadataIdentifier": identifier, "MCMMetadataContentClass": content_class,
                "MCMMetadataUUID": os.path.basename(folder), "MCMMetadataPersona": 501}
    with open(os.path.join(folder, ".com.apple.mobile_container_manager.metadata.plist"), "wb") as f:
        plistlib.dump(metadata, f, fmt=plistlib.FMT_BINARY)
    return folder


def fill(folder, files):
    for relative, value in (files or {}).items():
        if relative.endswith("/"):
            os.makedirs(os.path.join(folder, relative), exist_ok=True)
        else:
            write_file(os.path.join(folder, relative), value)


def entitlements_xml(groups):
    return plistlib.dumps({"application-identifier": "TEAMID.x", "com.apple.security.application-groups": groups})


def macho(entitlements, where):
    """A minimal arm64 MH_EXECUTE image with the entitlements in a section or in a code signature."""
    header_size = 32
    if where == "section":
        command_size = 72 + 80
        offset = header_size + command_size
        segment = struct.pack("<II16sQQQQiiII", 0x19, command_size, b"__TEXT", 0, offset + len(entitlements),
                              0, offset + len(entitlements), 5, 5, 1, 0)
        section = struct.pack("<16s16sQQIIIIIIII", b"__entitlements", b"__TEXT", offset, len(entitlements), offset,
                              0, 0, 0, 0, 0, 0, 0)
        header = struct.pack("<IiiIIIII", 0xFEEDFACF, 0x0100000C, 0, 2, 1, command_size, 0, 0)
        return header + segment + section + entitlements
    command_size = 16
    offset = header_size + command_size
    blob = struct.pack(">II", 0xFADE7171, 8 + len(entitlements)) + entitlements
    directory = struct.pack(">II", 0xFADE0C02, 8)
    index_size = 12 + 2 * 8
    superblob = struct.pack(">III", 0xFADE0CC0, index_size + len(directory) + len(blob), 2)
    superblob += struct.pack(">II", 0, index_size) + struct.pack(">II", 5, index_size + len(directory))
    superblob += directory + blob
    command = struct.pack("<IIII", 0x1D, command_size, offset, len(superblob))
    header = struct.pack("<IiiIIIII", 0xFEEDFACF, 0x0100000C, 0, 2, 1, command_size, 0, 0)
    return header + command + superblob


def bundle(folder, spec, suffix):
    """An .app or .appex with Info.plist and an executable carrying the spec's entitlements."""
    name = spec.get("executable", "App")
    path = os.path.join(folder, name + suffix)
    os.makedirs(path)
    with open(os.path.join(path, "Info.plist"), "wb") as f:
        plistlib.dump({"CFBundleIdentifier": spec["id"], "CFBundleExecutable": name}, f, fmt=plistlib.FMT_BINARY)
    kind = spec.get("entitlements")
    xml = entitlements_xml(spec.get("groups", []))
    image = b"\xcf\xfa\xed\xfe" + b"\0" * 60  # a Mach-O header with no load commands
    if kind in ("section", "signature"):
        image = macho(xml, kind)
    elif kind == "fat":
        thin = macho(xml, "signature")
        image = struct.pack(">II", 0xCAFEBABE, 1) + struct.pack(">iiIII", 0x0100000C, 0, 4096, len(thin), 12)
        image = image.ljust(4096, b"\0") + thin
    elif kind == "xcent":
        with open(os.path.join(path, "archived-expanded-entitlements.xcent"), "wb") as f:
            f.write(xml)
    with open(os.path.join(path, name), "wb") as f:
        f.write(image)
    fill(path, spec.get("bundleFiles"))
    return path


def link(path, target):
    """Replaces whatever is at `path` with a symbolic link to `target`."""
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def legacy_app(applications, spec):
    folder = os.path.join(applications, str(uuid.uuid4()).upper())
    app = os.path.join(folder, spec.get("name", "App") + ".app")
    os.makedirs(app)
    with open(os.path.join(app, "Info.plist"), "wb") as f:
        plistlib.dump({"CFBundleIdentifier": spec["id"], "CFBundleExecutable": spec.get("name", "App")}, f,
                      fmt=plistlib.FMT_BINARY)
    write_file(os.path.join(app, spec.get("name", "App")), 64)
    for standard in ("Documents", "Library", "Library/Preferences", "tmp"):
        os.makedirs(os.path.join(folder, standard), exist_ok=True)
    fill(folder, spec.get("data"))
    return {"legacyFolder": folder, "appBundle": app}


def device(root, spec):
    folder = os.path.join(root, spec.get("folder", spec["udid"]))
    containers = os.path.join(folder, "data", "Containers")
    if spec.get("legacyApps") is not None:
        containers = os.path.join(folder, "data", "Containers-unused")
    os.makedirs(containers)
    plist = {"UDID": spec["udid"], "name": spec["name"], "state": spec.get("state", 1),
             "runtime": "com.apple.CoreSimulator.SimRuntime." + spec["runtime"],
             "deviceType": "com.apple.CoreSimulator.SimDeviceType." + spec["deviceType"]}
    with open(os.path.join(folder, "device.plist"), "wb") as f:
        plistlib.dump(plist, f, fmt=plistlib.FMT_XML if spec.get("plist") == "xml" else plistlib.FMT_BINARY)
    paths = {}
    for app in spec.get("apps", []):
        app_folder = bundle(container(os.path.join(containers, "Bundle", "Application"), app["id"], 1), app, ".app")
        paths[app["id"]] = {"appBundle": app_folder}
        for relative, target in app.get("bundleLinks", {}).items():
            link(os.path.join(app_folder, relative), target)
        for extension in app.get("extensions", []):
            os.makedirs(os.path.join(app_folder, "PlugIns"), exist_ok=True)
            bundle(os.path.join(app_folder, "PlugIns"), extension, ".appex")
            if extension.get("data") is not None:
                plugin = container(os.path.join(containers, "Data", "PluginKitPlugin"), extension["id"], 2)
                fill(plugin, extension["data"])
                paths[extension["id"]] = {"dataContainer": plugin}
        if app.get("data") is not None:
            data = container(os.path.join(containers, "Data", "Application"), app["id"], 2)
            for standard in ("Documents", "Library", "Library/Caches", "Library/Preferences", "tmp"):
                os.makedirs(os.path.join(data, standard), exist_ok=True)
            fill(data, app["data"])
            paths[app["id"]]["dataContainer"] = data
    for app in spec.get("system", []):
        data = container(os.path.join(containers, "Data", "Application"), app["id"], 2)
        for standard in ("Documents", "Library", "tmp"):
            os.makedirs(os.path.join(data, standard), exist_ok=True)
        fill(data, app.get("data"))
        paths[app["id"]] = {"dataContainer": data}
    for group, files in spec.get("groups", {}).items():
        shared = container(os.path.join(containers, "Shared", "AppGroup"), group, 7)
        fill(shared, files)
        paths[group] = {"groupContainer": shared}
    for extension, files in spec.get("plugins", {}).items():
        plugin = container(os.path.join(containers, "Data", "PluginKitPlugin"), extension, 2)
        fill(plugin, files)
        paths[extension] = {"dataContainer": plugin}
    for app in spec.get("legacyApps", []):
        paths[app["id"]] = legacy_app(os.path.join(folder, "data", "Applications"), app)
    if spec.get("legacyApps") is not None:
        shutil.rmtree(os.path.join(folder, "data", "Containers-unused"))
    for relative, target in spec.get("links", {}).items():
        link(os.path.join(folder, relative), target)
    return paths


def main():
    out, spec_path = sys.argv[1], sys.argv[2]
    with open(spec_path) as f:
        spec = json.load(f)
    os.makedirs(out)
    written = {}
    for index, entry in enumerate(spec["devices"]):
        written[entry.get("folder", entry["udid"])] = device(out, entry)
    bulk = spec.get("bulk")
    for index in range((bulk or {}).get("count", 0)):
        udid = str(uuid.UUID(int=index + 1)).upper()
        folder = os.path.join(out, udid)
        os.makedirs(os.path.join(folder, "data", "Containers"))
        plist = {"UDID": udid, "name": "Bulk %05d" % index, "state": 1,
                 "runtime": "com.apple.CoreSimulator.SimRuntime." + bulk.get("runtime", "iOS-17-5"),
                 "deviceType": "com.apple.CoreSimulator.SimDeviceType.iPhone-15"}
        with open(os.path.join(folder, "device.plist"), "wb") as f:
            plistlib.dump(plist, f, fmt=plistlib.FMT_BINARY)
    real = spec.get("realMetadata")
    if real:
        chosen = spec["devices"][real.get("device", 0)]
        target = chosen.get("folder", chosen["udid"])
        folder = os.path.join(out, target, "data", "Containers", "Data", "Application", str(uuid.uuid4()).upper())
        os.makedirs(os.path.join(folder, "Documents"))
        os.makedirs(os.path.join(folder, "Library"))
        with open(real["path"], "rb") as source, open(os.path.join(folder, ".com.apple.mobile_container_manager.metadata.plist"), "wb") as f:
            f.write(source.read())
        written[target]["real"] = {"dataContainer": folder}
    with open(os.path.join(out, "device_set.plist"), "wb") as f:
        plistlib.dump({"DefaultDevices": {}, "Version": 0}, f, fmt=plistlib.FMT_BINARY)
    json.dump(written, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
