# Собственные сообщения сервера (с аргументами и формами множественного числа) и те, что
# оформляет страница партии.

step-choose = выберите один из выделенных элементов
help-wait = Дождитесь хода соперника.
help-step-back = Esc или правый щелчок: шаг назад.
help-confirm = Щёлкните выделенный элемент, чтобы продолжить, или подтвердите ниже.
turns = { $n ->
    [one] { $n } ход
    [few] { $n } хода
    [many] { $n } ходов
   *[other] { $n } хода
}
moves-legal = { $n ->
    [one] { $n } допустимый ход
    [few] { $n } допустимых хода
    [many] { $n } допустимых ходов
   *[other] { $n } допустимого хода
}
player-P1 = Игрок 1
player-P2 = Игрок 2
to-move = Ход: { $player }
result-you-won = Вы выиграли
result-you-lost = Вы проиграли
result-wins = Победа: { $player }
result-draw = Ничья
reason-resigned = { $player } сдаётся
reason-agreed = по соглашению
turn-number = Ход { $n }
coordinates = Координаты
flip-board = Перевернуть доску
new-game = Новая партия
game-over = Партия окончена
live = идёт
finished = окончена
you = вы
computer-level = компьютер, уровень { $level }
opponent-friend = друг (по ссылке)
opponent-hotseat = за одним экраном
waiting-for-you = ваш ход
waiting-for-them = ход соперника
started = начата { $date }
board-item = { $id }
error-gone = Партия закрыта; загружаем заново.
error-no-game = Такой партии нет.
error-unavailable = Сервер занят; попробуйте ещё раз.
error-bad-message = Сервер не понял запрос.
error-no-such-path = Здесь так ходить нельзя.
error-no-such-turn = Такого хода нет.
error-too-many = Слишком много запросов; подождите немного.
error-stale = Партия продолжилась; вот новая позиция.
error-spectator = Вы смотрите эту партию.
error-over = Партия окончена.
error-not-your-turn = Сейчас не ваш ход.
error-no-draws = Ничья здесь невозможна.
error-no-offer = Предложения ничьей нет.
error-illegal = Этот ход не по правилам.
error-no-undo = Нечего отменять.
error-race = Другой ход пришёл раньше.
error-cannot-save = Сервер сейчас не может сохранять партии.
error-save-failed = Ход не удалось сохранить.
error-damaged = Запись этой партии повреждена.
error-no-hint = Подсказка недоступна.
