/// Every built-in rule, in id order. Adding a rule means adding it here (a test checks every rule file is listed).
public enum RuleRegistry {
    public static let all: [any Rule.Type] = [
        BackupDisagreementRule.self, BudgetExceededRule.self, CredentialCookieRule.self, DocumentsHiddenDataRule.self,
        DuplicateContentRule.self, ExcludedUserDocumentRule.self, HardcodedCredentialRule.self,
        InterruptedDeletionRule.self, LargeBackedUpFileRule.self, LibraryRootFileRule.self, ManySmallFilesRule.self,
        PlaintextCredentialStoreRule.self, PreferencesBloatRule.self, RedownloadableInBackupRule.self,
        SecretInPropertyListRule.self, SecretInTextFileRule.self, SecretInURLCacheRule.self, SQLiteSidecarRule.self,
        SymlinkEscapeRule.self, TmpLeftoversRule.self, UnreadableEntryRule.self,
    ]

    public static func rule(id: String) -> (any Rule.Type)? { all.first { $0.description.id == id } }
}
