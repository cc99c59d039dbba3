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
board = Доска
rematch = Реванш (цвета меняются)
nav-first = к началу
nav-previous = ход назад
nav-next = ход вперёд
nav-last = к последнему ходу
invite-link = ссылка-приглашение
analysis = анализ
analyse-game = Анализ
analysis-after-the-game = Партию можно анализировать, когда она окончена.
back-to-game = К партии
back-to-game-line = К ходам партии
side-line = Вариант
review = Разбор
review-start = Разобрать всю партию
review-running = Разбор… { $done } из { $total }
evaluation = оценка
evaluation-graph = оценка по ходу партии
engine-line = глубина { $depth } · { $score } · { $line }
engine-thinking = Движок думает…
game-over-here = В этой позиции партия окончена.
mark-inaccuracy = неточность
mark-mistake = ошибка
mark-blunder = грубая ошибка
summary-row = { $player }: { $inaccuracies } ?! · { $mistakes } ? · { $blunders } ?? · средняя потеря { $loss }
help-explore = Щёлкайте по выделенному, чтобы попробовать свой ход; ← и → листают партию.
sound = Звук, когда ваш ход
clock-days = { $d } д { $h } ч
reason-time = у { $player } кончилось время
lobby = Лобби: сыграть с кем-нибудь сейчас
lobby-empty = Никто не ждёт. Создайте вызов — его кто-нибудь примет.
seek-game = Игра
seek-time = Время
seek-colour = Вы играете
seek-make = Найти соперника
seek-cancel = Отменить
seek-accept = Играть
seek-yours = ваш вызов: ждём соперника…
seek-waiting = Ждём соперника… (не закрывайте страницу)
seek-gone = Этот вызов уже принят или отменён.
seek-colour-P1 = автор ходит первым
seek-colour-P2 = автор ходит вторым
rated = на рейтинг
casual = без рейтинга
no-clock = без часов
clock-per-turn-days = { $d ->
    [one] { $d } день на ход
    [few] { $d } дня на ход
    [many] { $d } дней на ход
   *[other] { $d } дня на ход
}
rematch-offer = Предложить реванш
rematch-accept = Принять реванш
rematch-decline = Отклонить
rematch-offered = Вы предложили реванш.
rematch-offered-you = Соперник предлагает реванш, цвета меняются.
rematch-agreed = Реванш принят: переходим к новой партии.

# Players and ratings
players-nav = Игроки
players-leaderboard = Рейтинг игроков
players-leaderboard-of = Рейтинг игроков: { $game }
players-leaderboard-empty = Здесь ещё никто не доиграл рейтинговую партию.
players-rank = Место
players-player = Игрок
players-rating = Рейтинг
players-games = { $n ->
    [one] { $n } рейтинговая партия
    [few] { $n } рейтинговые партии
    [many] { $n } рейтинговых партий
   *[other] { $n } рейтинговой партии
}
players-games-column = Рейтинговых партий
players-provisional = предварительный: пока мало партий
players-ratings = Рейтинги
players-no-ratings = Рейтинговых партий пока нет.
players-recent-games = Последние партии
players-no-games = Партий пока нет.
players-history = Рейтинг со временем
players-history-of = { $game }: рейтинг после каждой рейтинговой партии и его погрешность
players-versus = против { $name }
players-nobody = пока никого
players-computer = компьютера
players-won = победа
players-lost = поражение
players-drew = ничья
players-playing = идёт
players-rated = рейтинговая
players-unknown = Такого игрока нет.
players-me = Вы
players-me-intro = Вы играете под именем { $name }. Его видят рядом с вашими ходами и в списках.
players-name = Имя
players-save = Сохранить
players-account = Учётная запись
players-guest = Вы играете как гость: имя и рейтинги привязаны к этому браузеру. Учётная запись сохранит их в любом браузере; почта не нужна.
players-signed-in = Вы вошли как { $account }.
players-register = Создать учётную запись
players-login = Войти
players-logout = Выйти
players-login-name = Логин
players-password = Пароль
players-your-page = Ваша страница игрока
players-error-name = Имя — от 1 до 24 символов, без управляющих символов.
players-error-login-name = Логин — от 3 до 24 символов: a–z, 0–9, _ и -.
players-error-password = Пароль — от 8 до 128 символов.
players-error-taken = Этот логин уже занят.
players-error-has-account = У вас уже есть учётная запись; чтобы создать другую, сначала выйдите.
players-error-login = Неверный логин или пароль.
players-error-too-many = Слишком много попыток с вашего адреса; повторите через { $s } с.
players-error-origin = Эта форма отправлена с другого сайта.
players-error-store = Сервер сейчас не может это сохранить; повторите чуть позже.
tv = Играют сейчас

## Библиотека партий: архив и дебютный справочник
opponent-record = из записи
reason-record = как сказано в записи
archive-title = Архив
archive-player = Игрок
archive-game = Игра
archive-variant = Вариант
archive-any = любая
archive-result = Итог
archive-result-p1 = победил первый игрок
archive-result-p2 = победил второй игрок
archive-result-draw = ничья
archive-result-won = игрок победил
archive-result-lost = игрок проиграл
archive-from = С
archive-to = По
archive-min-turns = Ходов не меньше
archive-max-turns = Ходов не больше
archive-search = Искать
archive-unavailable = Архив сейчас недоступен.
archive-empty = Ни одна партия не подходит.
archive-date = Дата
archive-turns = Ходов
archive-source = Источник
archive-newer = Новее
archive-older = Старше
archive-page = Страница { $page }
explorer = Дебютный справочник
explorer-turn = Ход
explorer-games = Партий
explorer-none = Ни одна партия архива не доходила до этой позиции.
explorer-total = { $games ->
    [one] { $games } партия отсюда
    [few] { $games } партии отсюда
   *[many] { $games } партий отсюда
}
explorer-reached = Партии, дошедшие до неё
