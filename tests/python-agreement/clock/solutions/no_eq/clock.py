class Clock:
    MINUTES_PER_DAY = 24 * 60

    def __init__(self, hour, minute):
        self.total = (hour * 60 + minute) % self.MINUTES_PER_DAY

    def __repr__(self):
        return f"Clock({self.total // 60}, {self.total % 60})"

    def __str__(self):
        return f"{self.total // 60:02d}:{self.total % 60:02d}"

    def __add__(self, minutes):
        return Clock(0, self.total + minutes)

    def __sub__(self, minutes):
        return Clock(0, self.total - minutes)
