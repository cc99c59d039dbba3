# 서버 자체 메시지(인수·복수형 포함)와 게임 페이지가 형식화하는 메시지.

step-choose = 강조된 항목 중 하나를 고르세요
help-wait = 상대의 차례를 기다리세요.
help-step-back = Esc 또는 오른쪽 클릭: 한 단계 뒤로.
help-confirm = 강조된 항목을 눌러 계속하거나 아래에서 확정하세요.
turns = { $n ->
   *[other] { $n }수
}
moves-legal = { $n ->
   *[other] 둘 수 있는 수 { $n }개
}
player-P1 = 플레이어 1
player-P2 = 플레이어 2
to-move = { $player } 차례
result-you-won = 이겼습니다
result-you-lost = 졌습니다
result-wins = { $player } 승리
result-draw = 무승부
reason-resigned = { $player } 기권
reason-agreed = 합의에 의해
turn-number = { $n }번째 수
coordinates = 좌표
flip-board = 판 뒤집기
new-game = 새 게임
game-over = 게임 종료
live = 진행 중
finished = 종료됨
you = 나
computer-level = 컴퓨터, { $level }단계
opponent-friend = 친구(초대 링크)
opponent-hotseat = 한 화면에서
waiting-for-you = 내 차례
waiting-for-them = 상대 차례
started = { $date } 시작
board-item = { $id }
error-gone = 게임이 닫혔습니다. 다시 불러옵니다.
error-no-game = 그런 게임이 없습니다.
error-unavailable = 서버가 바쁩니다. 다시 시도하세요.
error-bad-message = 서버가 이해하지 못했습니다.
error-no-such-path = 여기서 둘 수 없는 수입니다.
error-no-such-turn = 그런 수가 없습니다.
error-too-many = 요청이 너무 많습니다. 잠시 기다리세요.
error-stale = 게임이 진행되었습니다. 새 국면입니다.
error-spectator = 이 게임을 관전 중입니다.
error-over = 게임이 끝났습니다.
error-not-your-turn = 당신의 차례가 아닙니다.
error-no-draws = 여기서는 무승부가 불가능합니다.
error-no-offer = 무승부 제안이 없습니다.
error-illegal = 규칙에 맞지 않는 수입니다.
error-no-undo = 무를 수 있는 수가 없습니다.
error-race = 다른 수가 먼저 들어왔습니다.
error-cannot-save = 지금은 서버가 게임을 저장할 수 없습니다.
error-save-failed = 수를 저장하지 못했습니다.
error-damaged = 이 게임의 기록이 손상되었습니다.
error-no-hint = 힌트를 줄 수 없습니다.
