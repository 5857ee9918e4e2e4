/// Messages of sync with PostgreSQL.
enum SyncMessages {
    static let table: MessageCatalog.Table = [
        "syncOff": [
            .english: "Sync is off: start satchel with --sync URL",
            .russian: "Синхронизация выключена: запустите satchel с --sync URL",
            .japanese: "同期はオフです: satchel を --sync URL 付きで起動してください",
        ],
        "syncUnreachable": [
            .english: "The sync server cannot be reached; your changes are kept and go out when it is back",
            .russian: "Сервер синхронизации недоступен; изменения сохранены и уйдут, когда он вернётся",
            .japanese: "同期サーバーに接続できません。変更は保存され、接続が戻ると送信されます",
        ],
        "syncSchema": [
            .english: "The sync database is not ready: its owner must run satchel sync-setup",
            .russian: "База синхронизации не готова: её владелец должен выполнить satchel sync-setup",
            .japanese: "同期データベースの準備ができていません: 所有者が satchel sync-setup を実行する必要があります",
        ],
        "syncRefused": [
            .english: "The sync server refuses this device until something is changed: sync.status says what",
            .russian: "Сервер синхронизации не принимает это устройство, пока что-то не изменится: причина в sync.status",
            .japanese: "何かを変更するまで同期サーバーはこのデバイスを受け付けません: 理由は sync.status にあります",
        ],
        "notAuthor": [
            .english: "Only its author can delete this: another account wrote it",
            .russian: "Удалить это может только автор: это написал другой аккаунт",
            .japanese: "これを削除できるのは作成者だけです: 別のアカウントが作成しました",
        ],
        "emptyName": [
            .english: "A device needs a name",
            .russian: "Устройству нужно имя",
            .japanese: "デバイスには名前が必要です",
        ],
        "nameTooLong": [
            .english: "A device's name is at most {limit} characters",
            .russian: "Имя устройства — не длиннее {limit} символов",
            .japanese: "デバイス名は {limit} 文字までです",
        ],
        "wrongPassphrase": [
            .english: "That passphrase does not unlock this account's encrypted notes, photos, diary and reminders",
            .russian: "Эта фраза-пароль не открывает зашифрованные заметки, фото, дневник и напоминания аккаунта",
            .japanese: "このパスフレーズでは、このアカウントの暗号化されたノート・写真・日記・リマインダーを開けません",
        ],
        "passphraseTooShort": [
            .english: "A passphrase that encrypts this account is at least {limit} characters",
            .russian: "Фраза-пароль для шифрования аккаунта — не короче {limit} символов",
            .japanese: "このアカウントを暗号化するパスフレーズは {limit} 文字以上です",
        ],
    ]
}
